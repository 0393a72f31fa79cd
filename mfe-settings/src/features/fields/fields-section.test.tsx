import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Field } from '@scholia/shared/api';
import { failWith, fakeApi, longText } from '../../test/fake-api.js';
import { renderRemote } from '../../test/render.js';
import { FieldForm } from './fields-section.js';

const TEXT_FIELD: Field = { id: 'f1', name: 'review', title: 'Review', required: true, dataset_id: 'd1', settings: { type: 'text', use_markdown: false } };
const CUSTOM_FIELD: Field = { id: 'f2', name: 'card', title: 'Card', required: false, dataset_id: 'd1', settings: { type: 'custom', template: '<b>{{record.fields.card}}</b>', advanced_mode: false } };

describe('Edit fields', () => {
  afterEach(cleanup);
  const title = () => screen.getByLabelText<HTMLInputElement>('Title');

  it('refuses a title over 500 next to the input and sends nothing', async () => {
    const api = fakeApi({});
    renderRemote(<FieldForm field={TEXT_FIELD} />);
    fireEvent.change(title(), { target: { value: longText(501) } });
    expect(await screen.findByText('This must be less than 500.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save review' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(api.writes()).toEqual([]);
  });

  it('an empty title falls back to the field name; the Markdown toggle is sent with the type', async () => {
    const api = fakeApi({ 'PATCH v1/fields/f1': { ...TEXT_FIELD, title: 'review', settings: { type: 'text', use_markdown: true } } });
    renderRemote(<FieldForm field={TEXT_FIELD} />);
    fireEvent.change(title(), { target: { value: '  ' } });
    fireEvent.click(screen.getByLabelText('Use Markdown'));
    fireEvent.click(screen.getByRole('button', { name: 'Save review' }));
    await screen.findByText(/^Saved at /);
    expect(api.writes()[0].body).toEqual({ title: 'review', settings: { type: 'text', use_markdown: true } });
    expect(title().value).toBe('review');
  });

  it('edits a custom template', async () => {
    const api = fakeApi({ 'PATCH v1/fields/f2': CUSTOM_FIELD });
    renderRemote(<FieldForm field={CUSTOM_FIELD} />);
    fireEvent.change(screen.getByLabelText('Custom template'), { target: { value: '<i>x</i>' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save card' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0].body).toEqual({ title: 'Card', settings: { type: 'custom', template: '<i>x</i>', advanced_mode: false } });
  });

  it('goes back to the stored field when the save fails', async () => {
    fakeApi({ 'PATCH v1/fields/f1': () => failWith(500) });
    renderRemote(<FieldForm field={TEXT_FIELD} />);
    fireEvent.change(title(), { target: { value: 'Other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save review' }));
    await waitFor(() => expect(title().value).toBe('Review'));
  });
});
