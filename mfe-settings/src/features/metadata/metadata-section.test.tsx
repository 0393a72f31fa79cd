import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MetadataProperty, VectorSettings } from '@scholia/shared/api';
import { failWith, fakeApi, longText } from '../../test/fake-api.js';
import { renderRemote } from '../../test/render.js';
import { VectorForm } from '../vectors/vectors-section.js';
import { MetadataForm } from './metadata-section.js';

const GENRE: MetadataProperty = { id: 'm1', name: 'genre', title: 'Genre', visible_for_annotators: true, dataset_id: 'd1', settings: { type: 'terms', values: ['a'] } };
const EMBEDDING: VectorSettings = { id: 'v1', name: 'emb', title: 'Embedding', dimensions: 3, dataset_id: 'd1' };

describe('Edit metadata properties', () => {
  afterEach(cleanup);
  const title = () => screen.getByLabelText<HTMLInputElement>('Title');

  it('refuses a title over 500 or empty and sends nothing', async () => {
    const api = fakeApi({});
    renderRemote(<MetadataForm property={GENRE} />);
    fireEvent.change(title(), { target: { value: longText(501) } });
    expect(await screen.findByText('This must be less than 500.')).toBeTruthy();
    fireEvent.change(title(), { target: { value: '' } });
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save genre' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(api.writes()).toEqual([]);
  });

  it('always sends visible_for_annotators with the title', async () => {
    const api = fakeApi({ 'PATCH v1/metadata-properties/m1': { ...GENRE, title: 'Kind', visible_for_annotators: false } });
    renderRemote(<MetadataForm property={GENRE} />);
    fireEvent.change(title(), { target: { value: 'Kind ' } });
    fireEvent.click(screen.getByLabelText('Visible for annotators'));
    fireEvent.click(screen.getByRole('button', { name: 'Save genre' }));
    await screen.findByText(/^Saved at /);
    expect(api.writes()[0].body).toEqual({ title: 'Kind', visible_for_annotators: false });
  });

  it('goes back to the stored property when the save fails', async () => {
    fakeApi({ 'PATCH v1/metadata-properties/m1': () => failWith(403, { detail: { code: 'x', params: {} } }) });
    renderRemote(<MetadataForm property={GENRE} />);
    fireEvent.click(screen.getByLabelText('Visible for annotators'));
    fireEvent.click(screen.getByRole('button', { name: 'Save genre' }));
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Visible for annotators').checked).toBe(true));
  });
});

describe('Edit vectors', () => {
  afterEach(cleanup);
  const title = () => screen.getByLabelText<HTMLInputElement>('Title');

  it('refuses a title over 500 and sends nothing', async () => {
    const api = fakeApi({});
    renderRemote(<VectorForm vector={EMBEDDING} />);
    fireEvent.change(title(), { target: { value: longText(501) } });
    expect(await screen.findByText('This must be less than 500.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save emb' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(api.writes()).toEqual([]);
  });

  it('sends the trimmed title, and restores it when the save fails', async () => {
    const api = fakeApi({ 'PATCH v1/vectors-settings/v1': () => failWith(500) });
    renderRemote(<VectorForm vector={EMBEDDING} />);
    fireEvent.change(title(), { target: { value: ' Sentence embedding ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save emb' }));
    await waitFor(() => expect(title().value).toBe('Embedding'));
    expect(api.writes()[0].body).toEqual({ title: 'Sentence embedding' });
  });
});
