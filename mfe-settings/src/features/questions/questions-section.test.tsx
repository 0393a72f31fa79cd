import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { failWith, fakeApi, longText, makeQuestion } from '../../test/fake-api.js';
import { renderRemote } from '../../test/render.js';
import type { Question } from '@scholia/shared/api';
import { initI18n } from '@scholia/shared/i18n';
import { QuestionForm } from './questions-section.js';

const FOUR_OPTIONS = ['a', 'b', 'c', 'd'].map((value) => ({ value, text: value.toUpperCase(), description: null }));

describe('Edit questions', () => {
  afterEach(cleanup);
  const title = () => screen.getByLabelText<HTMLInputElement>('Title');
  const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save sentiment' }));

  it('requires a title of at most 200 and a description of at most 500; nothing is sent', async () => {
    const api = fakeApi({});
    renderRemote(<QuestionForm question={makeQuestion()} />);
    fireEvent.change(title(), { target: { value: ' ' } });
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    fireEvent.change(title(), { target: { value: longText(201) } });
    expect(await screen.findByText('This must be less than 200.')).toBeTruthy();
    fireEvent.change(title(), { target: { value: 'Fine' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: longText(501) } });
    expect(await screen.findByText('This must be less than 500.')).toBeTruthy();
    save();
    await new Promise((r) => setTimeout(r, 20));
    expect(api.writes()).toEqual([]);
  });

  it('a modified question can be restored', async () => {
    fakeApi({});
    renderRemote(<QuestionForm question={makeQuestion()} />);
    fireEvent.change(title(), { target: { value: 'Changed' } });
    fireEvent.change(screen.getByLabelText('Text of option pos'), { target: { value: 'Good' } });
    expect(screen.getByText('Modified')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Restore sentiment' }));
    expect(title().value).toBe('Sentiment');
    expect(screen.getByLabelText<HTMLInputElement>('Text of option pos').value).toBe('Positive');
    expect(screen.queryByText('Modified')).toBeNull();
  });

  it('sends trimmed texts, reordered options, visible options (only when shown) and options order', async () => {
    const question = makeQuestion({
      settings: { type: 'multi_label_selection', options: FOUR_OPTIONS, visible_options: 4, options_order: 'natural' },
    });
    const api = fakeApi({ 'PATCH v1/questions/q1': ({ body }: { body: unknown }) => ({ ...question, ...(body as object) }) });
    renderRemote(<QuestionForm question={question} />);
    fireEvent.change(title(), { target: { value: '  Topics  ' } });
    fireEvent.change(screen.getByLabelText('Text of option b'), { target: { value: ' Bee ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move b up' }));
    fireEvent.change(screen.getByLabelText('Visible options'), { target: { value: '3' } });
    fireEvent.click(screen.getByLabelText('Show suggestions first'));
    save();
    await screen.findByText(/^Saved at /);
    expect(api.writes()[0].body).toEqual({
      title: 'Topics',
      description: null,
      settings: {
        type: 'multi_label_selection',
        options: [
          { value: 'b', text: 'Bee', description: null }, { value: 'a', text: 'A', description: null },
          { value: 'c', text: 'C', description: null }, { value: 'd', text: 'D', description: null },
        ],
        visible_options: 3,
        options_order: 'suggestion',
      },
      visible_for_annotators: true,
    });
  });

  it('checks visible options against the option count', async () => {
    const question = makeQuestion({ settings: { type: 'label_selection', options: FOUR_OPTIONS, visible_options: null } });
    const api = fakeApi({});
    renderRemote(<QuestionForm question={question} />);
    expect(screen.getByLabelText<HTMLInputElement>('Visible options').value).toBe('4'); // defaults to the option count
    fireEvent.change(screen.getByLabelText('Visible options'), { target: { value: '7' } });
    expect(await screen.findByText('Enter a whole number from 3 to 4.')).toBeTruthy();
    save();
    await new Promise((r) => setTimeout(r, 20));
    expect(api.writes()).toEqual([]);
  });

  it('hides visible options with 3 options or fewer and never sends them', async () => {
    const api = fakeApi({ 'PATCH v1/questions/q1': makeQuestion({ title: 'New' }) });
    renderRemote(<QuestionForm question={makeQuestion()} />);
    expect(screen.queryByLabelText('Visible options')).toBeNull();
    fireEvent.change(title(), { target: { value: 'New' } });
    save();
    await screen.findByText(/^Saved at /);
    expect(api.writes()[0].body).toEqual({
      title: 'New', description: null,
      settings: { type: 'label_selection', options: [
        { value: 'pos', text: 'Positive', description: null }, { value: 'neg', text: 'Negative', description: null }] },
      visible_for_annotators: true,
    });
  });

  it('a span question always sends allow_overlapping and cannot switch it off', async () => {
    const span = makeQuestion({ settings: { type: 'span', field: 'text', options: FOUR_OPTIONS.slice(0, 2), visible_options: null, allow_overlapping: true } });
    fakeApi({});
    renderRemote(<QuestionForm question={span} />);
    expect(screen.getByLabelText<HTMLInputElement>('Allow overlapping spans').disabled).toBe(true);
  });

  describe('Visible for annotators', () => {
    const visible = () => screen.getByLabelText<HTMLInputElement>('Visible for annotators');
    const optional = (patch: Partial<Question> = {}) => makeQuestion({ required: false, ...patch });

    it('hides a non-required question: marks it modified, sends it and keeps the saved value', async () => {
      const api = fakeApi({ 'PATCH v1/questions/q1': ({ body }: { body: unknown }) => ({ ...optional(), ...(body as object) }) });
      renderRemote(<QuestionForm question={optional()} />);
      expect(visible().checked).toBe(true);
      expect(visible().disabled).toBe(false);
      expect(screen.queryByText('Modified')).toBeNull();
      fireEvent.click(visible());
      expect(screen.getByText('Modified')).toBeTruthy();
      save();
      await screen.findByText(/^Saved at /);
      expect(api.writes()).toHaveLength(1);
      expect(api.writes()[0].body).toMatchObject({ visible_for_annotators: false, title: 'Sentiment' });
      expect(visible().checked).toBe(false);
      expect(screen.queryByText('Modified')).toBeNull();
    });

    it('a hidden question can be shown again, and the change restored before saving', async () => {
      fakeApi({});
      renderRemote(<QuestionForm question={optional({ visible_for_annotators: false })} />);
      expect(visible().checked).toBe(false);
      fireEvent.click(visible());
      expect(visible().checked).toBe(true);
      fireEvent.click(screen.getByRole('button', { name: 'Restore sentiment' }));
      expect(visible().checked).toBe(false);
      expect(screen.queryByText('Modified')).toBeNull();
    });

    it('goes back to visible when the server refuses to hide the question', async () => {
      const api = fakeApi({ 'PATCH v1/questions/q1': () => failWith(422, { detail: 'A required question must be visible for annotators.' }) });
      const { container } = renderRemote(<QuestionForm question={optional()} />);
      fireEvent.click(visible());
      save();
      await waitFor(() => expect(visible().checked).toBe(true));
      expect(api.writes()[0].body).toMatchObject({ visible_for_annotators: false });
      expect(within(container).getByText('The changes were not saved; the section shows the stored values again.')).toBeTruthy();
      expect(screen.queryByText('Modified')).toBeNull();
    });

    it('is on and locked for a required question, with a hint; saving sends it as visible', async () => {
      const api = fakeApi({ 'PATCH v1/questions/q1': ({ body }: { body: unknown }) => ({ ...makeQuestion(), ...(body as object) }) });
      renderRemote(<QuestionForm question={makeQuestion({ required: true })} />);
      expect(visible().checked).toBe(true);
      expect(visible().disabled).toBe(true);
      const hint = screen.getByText('Required questions are always visible for annotators.');
      expect(visible().getAttribute('aria-describedby')).toBe(hint.id);
      fireEvent.change(title(), { target: { value: 'Mood' } });
      save();
      await screen.findByText(/^Saved at /);
      expect(api.writes()[0].body).toMatchObject({ title: 'Mood', visible_for_annotators: true });
    });

    it('a required question stored as hidden shows the message, can be switched on, and is not sent hidden', async () => {
      const api = fakeApi({});
      renderRemote(<QuestionForm question={makeQuestion({ required: true, visible_for_annotators: false })} />);
      expect(screen.getByText('A required question must be visible for annotators.')).toBeTruthy();
      expect(visible().disabled).toBe(false);
      fireEvent.change(title(), { target: { value: 'Mood' } });
      save();
      await new Promise((r) => setTimeout(r, 20));
      expect(api.writes()).toEqual([]);
      fireEvent.click(visible());
      expect(screen.queryByText('A required question must be visible for annotators.')).toBeNull();
      expect(visible().disabled).toBe(true);
    });

    it('is worded in German and Spanish', async () => {
      fakeApi({});
      try {
        renderRemote(<QuestionForm question={makeQuestion()} />, 'de');
        expect(await screen.findByLabelText('Für Annotatoren sichtbar')).toBeTruthy();
        expect(screen.getByText('Pflichtfragen sind für Annotatoren immer sichtbar.')).toBeTruthy();
        cleanup();
        renderRemote(<QuestionForm question={makeQuestion()} />, 'es');
        expect(await screen.findByLabelText('Visible para los anotadores')).toBeTruthy();
        expect(screen.getByText('Las preguntas obligatorias siempre son visibles para los anotadores.')).toBeTruthy();
      } finally {
        await initI18n().changeLanguage('en');
      }
    });
  });

  it('goes back to the stored question when the server refuses the update', async () => {
    const api = fakeApi({ 'PATCH v1/questions/q1': () => failWith(422, { detail: 'the option values cannot be modified' }) });
    const { container } = renderRemote(<QuestionForm question={makeQuestion()} />);
    fireEvent.change(title(), { target: { value: 'Other' } });
    save();
    await waitFor(() => expect(title().value).toBe('Sentiment'));
    expect(within(container).getByText('The changes were not saved; the section shows the stored values again.')).toBeTruthy();
    expect(api.toasts.map((t) => t.message)).toContain('the option values cannot be modified');
  });
});
