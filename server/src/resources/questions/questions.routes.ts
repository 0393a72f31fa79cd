import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DatasetIdParams, QuestionCreateBody, QuestionIdParams, QuestionUpdateBody } from '@scholia/shared/contract';
import { listQuestions } from '../../storage/repositories/dataset-settings.repository.js';
import { getDatasetOrThrow } from '../datasets/dataset-lookup.js';
import { authorizeDatasetRead, authorizeDatasetWrite } from '../datasets/datasets.policy.js';
import { presentQuestion } from './question.presenter.js';
import { canSeeQuestion } from './questions.policy.js';
import { createQuestion, deleteQuestion, getQuestionOrThrow, updateQuestion } from './questions.service.js';

/** Questions (contract §2.6). */
export const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const database = app.database;
  const { db } = database;

  app.get('/datasets/:dataset_id/questions', { schema: { params: DatasetIdParams } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetRead(db, request.user, dataset);
    const questions = await listQuestions(db, dataset.id);
    return { items: questions.filter((q) => canSeeQuestion(request.user, q)).map(presentQuestion) };
  });

  app.post('/datasets/:dataset_id/questions', { schema: { params: DatasetIdParams, body: QuestionCreateBody } }, async (request, reply) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetWrite(db, request.user, dataset);
    const question = await createQuestion(database, dataset, request.body);
    return reply.code(201).send(presentQuestion(question));
  });

  app.patch('/questions/:question_id', { schema: { params: QuestionIdParams, body: QuestionUpdateBody } }, async (request) => {
    const question = await getQuestionOrThrow(database, request.params.question_id);
    await authorizeDatasetWrite(db, request.user, await getDatasetOrThrow(db, question.dataset_id));
    return presentQuestion(await updateQuestion(database, question, request.body));
  });

  app.delete('/questions/:question_id', { schema: { params: QuestionIdParams } }, async (request) => {
    const question = await getQuestionOrThrow(database, request.params.question_id);
    const dataset = await getDatasetOrThrow(db, question.dataset_id);
    await authorizeDatasetWrite(db, request.user, dataset);
    return presentQuestion(await deleteQuestion(database, dataset, question));
  });
};
