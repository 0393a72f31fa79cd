import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { WebhookCreateBody, WebhookIdParams, WebhookUpdateBody } from '@scholia/shared/contract';
import { authorizeWebhookAdministration } from './webhooks.policy.js';
import { presentWebhook, presentWebhookDelivery } from './webhooks.presenter.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhookDeliveries, listWebhooks, pingWebhook, updateWebhook } from './webhooks.service.js';

/**
 * `/webhooks` (contract §2.12), owner-only. List and create authorize first; the routes on one
 * webhook load it first (404 before 403).
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;

  app.get('/webhooks', async (request) => {
    authorizeWebhookAdministration(request.user);
    return { items: (await listWebhooks(db)).map(presentWebhook) };
  });

  app.post('/webhooks', { schema: { body: WebhookCreateBody } }, async (request, reply) => {
    authorizeWebhookAdministration(request.user);
    return reply.code(201).send(presentWebhook(await createWebhook(db, request.body, app.config.webhookPrivateTargets)));
  });

  app.patch('/webhooks/:webhook_id', { schema: { params: WebhookIdParams, body: WebhookUpdateBody } }, async (request) => {
    const webhook = await getWebhook(db, request.params.webhook_id);
    authorizeWebhookAdministration(request.user);
    return presentWebhook(await updateWebhook(db, webhook, request.body, app.config.webhookPrivateTargets));
  });

  app.delete('/webhooks/:webhook_id', { schema: { params: WebhookIdParams } }, async (request) => {
    const webhook = await getWebhook(db, request.params.webhook_id);
    authorizeWebhookAdministration(request.user);
    return presentWebhook(await deleteWebhook(db, webhook));
  });

  // Answers at once; the signed ping event is sent in the background and shows in the delivery log.
  app.post('/webhooks/:webhook_id/ping', { schema: { params: WebhookIdParams } }, async (request, reply) => {
    const webhook = await getWebhook(db, request.params.webhook_id);
    authorizeWebhookAdministration(request.user);
    await pingWebhook(db, webhook);
    return reply.code(204).send();
  });

  // Scholia extension: the webhook's delivery log, newest first.
  app.get('/webhooks/:webhook_id/deliveries', { schema: { params: WebhookIdParams } }, async (request) => {
    const webhook = await getWebhook(db, request.params.webhook_id);
    authorizeWebhookAdministration(request.user);
    return { items: (await listWebhookDeliveries(db, webhook)).map(presentWebhookDelivery) };
  });
};
