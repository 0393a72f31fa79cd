import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerAnnotationI18n } from '../../../i18n/register-annotation-i18n.js';
import { useState } from 'react';
import type { Field, Question } from '../model/types.js';
import { shortcutAction } from '../model/shortcuts.js';
import { SpanLabels, SpanText } from './span-question.js';

const question: Question = {
  id: 'q', name: 'entities', title: 'Entities', description: null, required: false, visible_for_annotators: true, dataset_id: 'd',
  settings: { type: 'span', field: 'text', options: [{ value: 'person', text: 'PERSON' }], allow_overlapping: false },
};
const fields = [{ id: 'f', name: 'text', title: 'Text', required: true, settings: { type: 'text' }, dataset_id: 'd' }] as Field[];

describe('span question', () => {
  beforeAll(registerAnnotationI18n);
  afterEach(cleanup);

  it('says so where the browser lacks the CSS Custom Highlight API (spec §5)', () => {
    // jsdom has no CSS.highlights, like the browsers the spec's message is for.
    const spans = [{ start: 0, end: 3, label: 'person' }];
    render(<RemoteProviders>
      <SpanText question={question} field={fields[0]} text="Ada Lovelace" spans={spans} label="person" onChange={() => {}} />
      <SpanLabels question={question} field={fields[0]} text="Ada Lovelace" value={spans} label="person" onLabel={() => {}} onChange={() => {}} />
    </RemoteProviders>);
    expect(screen.getByRole('alert').textContent).toBe('Span annotation is not supported for your browser');
    // The spans stay readable as a list.
    expect(screen.getByTestId('span-chip').textContent).toContain('“Ada”');
    // Labels and spans of any script keep their own direction.
    expect(screen.getByTestId('span-text-entities').getAttribute('dir')).toBe('auto');
    expect(screen.getByTestId('span-chip').querySelector('bdi')).not.toBeNull();
    expect(screen.getByRole('radio', { name: /PERSON/ }).querySelector('bdi')?.textContent).toBe('PERSON');
  });

  it('moves between its labels with the arrows, which then never turn the record', () => {
    const twoLabels = { ...question, settings: { ...question.settings, options: [{ value: 'person', text: 'PERSON' }, { value: 'place', text: 'PLACE' }] } };
    function Labels() {
      const [label, setLabel] = useState('person');
      return <SpanLabels question={twoLabels} field={fields[0]} text="Ada Lovelace" value={[]} label={label} onLabel={setLabel} onChange={() => {}} />;
    }
    render(<RemoteProviders><Labels /></RemoteProviders>);
    const actions: (string | undefined)[] = [];
    const onKey = (event: KeyboardEvent) => actions.push(shortcutAction(event));
    document.addEventListener('keydown', onKey);
    try {
      fireEvent.keyDown(screen.getByRole('radiogroup'), { key: 'ArrowRight' });
      expect(screen.getByRole('radio', { name: /PLACE/ }).getAttribute('aria-checked')).toBe('true');
      fireEvent.keyDown(screen.getByRole('radiogroup'), { key: 'ArrowRight' });
      expect(screen.getByRole('radio', { name: /PERSON/ }).getAttribute('aria-checked')).toBe('true');
    } finally {
      document.removeEventListener('keydown', onKey);
    }
    expect(actions).toEqual([undefined, undefined]);
  });
});
