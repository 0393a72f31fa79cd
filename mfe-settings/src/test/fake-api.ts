import { vi } from 'vitest';
import { queryClient, type Dataset, type Question, type User } from '@scholia/shared/api';
import { bus, type ToastRequest } from '@scholia/shared/bus';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** `METHOD path` (path without /api/ and query) → JSON answer, or a Response for errors. */
export type Route = (call: Call) => unknown;

/**
 * Stubs fetch with a tiny router over the API paths and records every call, so tests assert
 * what was (and was not) sent. Unknown routes answer 404.
 */
export function fakeApi(routes: Record<string, Route | unknown>) {
  const calls: Call[] = [];
  const toasts: ToastRequest[] = [];
  const onToast = (toast: ToastRequest) => toasts.push(toast);
  bus.on('toast:requested', onToast);
  queryClient.clear();
  vi.stubGlobal('fetch', vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const path = url.pathname.replace(/^\/api\//, '');
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) as unknown : undefined;
    const call = { method, path, body };
    calls.push(call);
    const route = routes[`${method} ${path}`];
    if (route === undefined) return Response.json({ detail: 'Not Found' }, { status: 404 });
    const answer = typeof route === 'function' ? (route as Route)(call) : route;
    return answer instanceof Response ? answer : Response.json(answer);
  }));
  return {
    calls,
    toasts,
    writes: () => calls.filter((c) => c.method !== 'GET'),
    stop: () => bus.off('toast:requested', onToast),
  };
}

export const failWith = (status: number, body: unknown = { detail: 'Boom' }) => Response.json(body, { status });

export const OWNER_USER: User = { id: 'u1', username: 'olivia', first_name: 'Olivia', last_name: null, role: 'owner', api_key: 'key.owner' };
export const ANNOTATOR_USER: User = { ...OWNER_USER, id: 'u2', username: 'ana', role: 'annotator', api_key: 'key.ann' };

export function makeDataset(patch: Partial<Dataset> = {}): Dataset {
  return {
    id: 'd1', name: 'reviews', workspace_id: 'w1', status: 'ready', guidelines: 'Be **kind**', allow_extra_metadata: true,
    metadata: null, distribution: { strategy: 'overlap', min_submitted: 1 },
    inserted_at: '2026-01-01T00:00:00', updated_at: '2026-01-02T00:00:00', last_activity_at: '2026-01-02T00:00:00',
    ...patch,
  };
}

export function makeQuestion(patch: Partial<Question> = {}): Question {
  return {
    id: 'q1', name: 'sentiment', title: 'Sentiment', description: null, required: true, visible_for_annotators: true, dataset_id: 'd1',
    settings: {
      type: 'label_selection',
      options: [
        { value: 'pos', text: 'Positive', description: null },
        { value: 'neg', text: 'Negative', description: null },
      ],
      visible_options: null,
    },
    ...patch,
  };
}

export const longText = (length: number) => 'x'.repeat(length);
