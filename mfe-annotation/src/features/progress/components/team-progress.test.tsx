import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';
import { RemoteProviders } from '@scholia/shared/ui';
import { TeamProgress } from './team-progress.js';

const counts = (submitted: number, draft: number, discarded: number) => ({ submitted, draft, discarded });

function serve(role: string) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url.endsWith('/users/progress')) {
      return Response.json({ users: [
        { username: 'bob', completed: counts(1, 0, 0), pending: counts(0, 2, 1) },
        { username: 'alice', completed: counts(2, 0, 1), pending: counts(1, 1, 0) },
      ] });
    }
    if (url.endsWith('/progress')) return Response.json({ total: 10, completed: 3, pending: 7, users: [] });
    if (url.endsWith('/metrics')) return Response.json({ responses: { total: 10, submitted: 4, draft: 1, discarded: 0, pending: 5 } });
    return Response.json({ id: 'u', username: 'carol', role, api_key: 'k', first_name: 'c', last_name: null });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const open = () => {
  const details = screen.getByRole('group');
  (details as HTMLDetailsElement).open = true;
  fireEvent(details, new Event('toggle'));
};
const rows = () => within(screen.getByTestId('team-table')).getAllByRole('row').slice(1).map((row) => [...row.children].map((cell) => cell.textContent));
const usersProgressCalls = (fetchMock: ReturnType<typeof serve>) => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/users/progress')).length;

describe('team progress', () => {
  beforeEach(() => queryClient.clear());
  afterEach(cleanup);

  it("shows owners and admins the totals and each annotator's answers by status, re-read after a response", async () => {
    const fetchMock = serve('owner');
    render(<RemoteProviders><TeamProgress datasetId="d1" isAdmin /></RemoteProviders>);
    expect(usersProgressCalls(fetchMock)).toBe(0); // nothing counted until the panel opens
    open();
    await vi.waitFor(() => expect(screen.getByTestId('team-table')).toBeTruthy());
    expect(rows()).toEqual([['alice', '3', '1', '1'], ['bob', '1', '2', '1']]);
    expect(screen.getByTestId('team-totals').textContent).toBe('Records10Completed3Pending records7');
    await act(async () => bus.emit('progress:refresh-requested', { datasetId: 'd1' }));
    await vi.waitFor(() => expect(usersProgressCalls(fetchMock)).toBe(2));
  });

  it('shows an annotator their own line only, without reading everyone’s counts', async () => {
    const fetchMock = serve('annotator');
    render(<RemoteProviders><TeamProgress datasetId="d1" isAdmin={false} /></RemoteProviders>);
    open();
    await vi.waitFor(() => expect(rows()).toEqual([['carol', '4', '1', '0']]));
    expect(usersProgressCalls(fetchMock)).toBe(0);
  });
});
