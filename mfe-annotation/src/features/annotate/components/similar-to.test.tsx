import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import type { Field } from '../model/types.js';
import { recordExcerpt, SimilarTo } from './similar-to.js';

const fields = [
  { id: 'f0', name: 'picture', title: 'Picture', required: false, settings: { type: 'image' }, dataset_id: 'd' },
  { id: 'f1', name: 'text', title: 'Text', required: true, settings: { type: 'text' }, dataset_id: 'd' },
] as Field[];

describe('similarity search names its record', () => {
  beforeEach(() => queryClient.clear());
  afterEach(cleanup);

  it('by the first words of its text, not by its id', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ id: '3f2a1b4c-0000', fields: { picture: 'x.png', text: 'The  quick brown fox jumps over the lazy dog, then runs far away into the woods.' } })));
    render(<RemoteProviders><SimilarTo recordId="3f2a1b4c-0000" fields={fields} /></RemoteProviders>);
    expect((await screen.findByText(/^Records similar to “/)).textContent).toBe('Records similar to “The quick brown fox jumps over the lazy dog, then runs far…”');
  });

  it('by its external id when it has no text, else as the chosen record', () => {
    expect(recordExcerpt({ picture: 'x.png' }, fields)).toBeUndefined();
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 404 })));
    render(<RemoteProviders><SimilarTo recordId="gone" fields={fields} /></RemoteProviders>);
    expect(screen.getByTestId('similar-to').textContent).toBe('Records similar to the chosen record');
  });
});
