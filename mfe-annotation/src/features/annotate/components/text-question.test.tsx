import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerAnnotationI18n } from '../../../i18n/register-annotation-i18n.js';
import type { Question } from '../model/types.js';
import { TextQuestion } from './text-question.js';

const question: Question = {
  id: 'q', name: 'comment', title: 'Comment', description: null, required: true, visible_for_annotators: true, dataset_id: 'd',
  settings: { type: 'text' },
};

describe('text question', () => {
  beforeAll(registerAnnotationI18n);
  afterEach(cleanup);

  it('drops NUL characters from what is typed or pasted, which the server would refuse', () => {
    const onChange = vi.fn();
    render(<RemoteProviders><TextQuestion question={question} value={undefined} onChange={onChange} /></RemoteProviders>);
    const box = screen.getByRole('textbox', { name: 'Comment' });
    fireEvent.change(box, { target: { value: 'pasted\u0000text' } });
    expect(onChange).toHaveBeenLastCalledWith('pastedtext');
    fireEvent.change(box, { target: { value: '\u0000' } });
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });
});
