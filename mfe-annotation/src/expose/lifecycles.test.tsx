import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import type { AnnotationEvent, AnnotationMountProps } from '@scholia/shared';
import { queryClient, writeToken } from '@scholia/shared/api';
import { bootstrap, mount, unmount, update } from './lifecycles.js';

describe('single-spa lifecycles', () => {
  let domElement: HTMLElement;
  beforeEach(() => {
    localStorage.clear();
    queryClient.clear();
    writeToken(undefined);
    domElement = document.createElement('div');
    document.body.append(domElement);
  });
  afterEach(() => {
    domElement.remove();
  });

  it('mounts with an API root, an API key and a language, reports events, and unmounts cleanly', async () => {
    const requests: { url: string; headers: Record<string, string> }[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
      requests.push({ url, headers: init.headers as Record<string, string> });
      return Response.json({ detail: 'Could not validate credentials' }, { status: 401 });
    }));
    const events: AnnotationEvent[] = [];
    const props = {
      name: 'annotation', singleSpa: {}, mountParcel: () => undefined,
      domElement, datasetId: 'd1', apiBaseUrl: 'https://labels.example.org/api', apiKey: 'key-of-ann', language: 'es',
      onEvent: (event: AnnotationEvent) => events.push(event),
    } satisfies AnnotationMountProps & Record<string, unknown>;
    await bootstrap(props as never);
    await mount(props as never);
    await waitFor(() => expect(requests.length).toBeGreaterThan(0));
    expect(requests.every((r) => r.url.startsWith('https://labels.example.org/api/v1/'))).toBe(true);
    expect(requests.every((r) => r.headers['X-Argilla-Api-Key'] === 'key-of-ann' && !r.headers.Authorization)).toBe(true);
    await waitFor(() => expect(domElement.querySelector('[data-testid="session-expired"]')?.textContent).toBe(
      'Su sesión ha caducado. Vuelva a iniciar sesión para seguir anotando.'));
    expect(events.filter((e) => e.type === 'session-expired')).toHaveLength(1);
    // A parcel's update: the mounted instance speaks the new language and sends the new key.
    await update({ ...props, language: 'de', apiKey: 'new-key-of-ann' } as never);
    await waitFor(() => expect(domElement.querySelector('[data-testid="session-expired"]')?.textContent).toBe(
      'Ihre Sitzung ist abgelaufen. Melden Sie sich erneut an, um weiter zu annotieren.'));
    await waitFor(() => expect(requests.some((r) => r.headers['X-Argilla-Api-Key'] === 'new-key-of-ann')).toBe(true));
    await unmount(props as never);
    expect(domElement.textContent).toBe('');
    // The key lived in the mounted instance only: nothing of it is left in the browser.
    expect(Object.values({ ...localStorage }).some((value) => String(value).includes('key-of-ann'))).toBe(false);
  });
});
