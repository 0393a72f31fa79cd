import { afterEach, describe, expect, it } from 'vitest';
import type { AnnotationRecord, Question } from './types.js';
import { firstUnansweredQuestion, preselectedQuestions, questionFocusTarget } from './question-focus.js';

const question = (name: string, type = 'label_selection'): Question => ({
  id: `id-${name}`, name, title: name, description: null, required: false, visible_for_annotators: true, dataset_id: 'd',
  settings: { type, options: [{ value: 'a', text: 'A' }, { value: 'b', text: 'B' }] },
});
const questions = [question('first'), question('second'), question('third', 'text')];
const record = (values?: Record<string, unknown>): AnnotationRecord => ({
  id: 'r', fields: {}, metadata: {}, status: 'pending', external_id: null, inserted_at: '', updated_at: '',
  suggestions: [{ id: 's', question_id: 'id-first', type: 'model', value: 'b', agent: null, score: null }],
  responses: values ? [{ id: 'resp', user_id: 'me', status: 'draft', values: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }])) }] : [],
} as unknown as AnnotationRecord);

describe('where the keyboard starts on a record', () => {
  afterEach(() => { document.body.innerHTML = ''; });

  it('starts on the first question without an own answer; a preselected suggestion is none', () => {
    expect(firstUnansweredQuestion(record(), questions)?.name).toBe('first');
    expect(firstUnansweredQuestion(record({ first: 'a' }), questions)?.name).toBe('second');
    expect(firstUnansweredQuestion(record({ first: 'a', second: 'b', third: 'x' }), questions)?.name).toBe('first');
  });

  it('marks suggestions as preselected only on a record the annotator has not answered', () => {
    expect([...preselectedQuestions(record(), questions)]).toEqual(['first']);
    expect(preselectedQuestions(record({ second: 'a' }), questions).size).toBe(0);
  });

  it('focuses a question\'s marked control, else its first control', () => {
    document.body.innerHTML = '<form><fieldset data-question="a"><p>x</p><div tabindex="0" data-question-focus id="group"></div></fieldset>'
      + '<fieldset data-question="b"><button id="handle">⠿</button></fieldset></form>';
    expect(questionFocusTarget(document.body, 'a')?.id).toBe('group');
    expect(questionFocusTarget(document.body, 'b')?.id).toBe('handle');
    expect(questionFocusTarget(document.body, 'c')).toBeNull();
  });
});
