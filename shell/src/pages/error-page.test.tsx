import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@scholia/shared/api';
import { initI18n } from '@scholia/shared/i18n';
import { RouteError } from '../routes/route-error.js';
import { RouteErrorBoundary } from '../routes/route-table.js';
import { NotFoundPage } from './error-page.js';

function Throws({ error }: { error: unknown }): never {
  throw error;
}

/** Renders a route that throws `error`, inside the shell's route error boundary. */
function renderFailingRoute(error: unknown) {
  vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports the caught crash
  render(
    <I18nextProvider i18n={initI18n('en')}>
      <MemoryRouter><RouteErrorBoundary><Throws error={error} /></RouteErrorBoundary></MemoryRouter>
    </I18nextProvider>,
  );
}

const code = () => document.querySelector('.sch-error-page__code')?.textContent;
const message = () => document.querySelector('.sch-error-page__message')?.textContent;

describe('error page', () => {
  afterEach(cleanup);
  beforeEach(() => sessionStorage.clear());

  it('shows the status code, the message, the title, the text and a link home', async () => {
    renderFailingRoute(Object.assign(new Error('Teapot refused'), { statusCode: 418 }));
    expect(await screen.findByRole('heading', { name: 'Something went wrong.' })).toBeTruthy();
    expect(code()).toBe('418');
    expect(message()).toBe('Teapot refused');
    expect(screen.getByText("We can't seem to find the page you are looking for")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home page' }).getAttribute('href')).toBe('/');
  });

  it("shows an unknown guard step as 500 'Unknown middleware'", async () => {
    renderFailingRoute(new RouteError(500, 'Unknown middleware'));
    await screen.findByRole('heading', { name: 'Something went wrong.' });
    expect(code()).toBe('500');
    expect(message()).toBe('Unknown middleware');
  });

  it.each([null, undefined, new Error('')])('says %s thrown is an unknown error (a translated message)', async (thrown) => {
    renderFailingRoute(thrown);
    await screen.findByRole('heading', { name: 'Something went wrong.' });
    expect(code()).toBe('500');
    expect(message()).toBe('Unknown error');
  });

  it('says an API failure without detail in words, not as its repository code', async () => {
    renderFailingRoute(new ApiError({ status: 500, repositoryCode: 'ERROR_FETCHING_CURRENT_USER' }));
    await screen.findByRole('heading', { name: 'Something went wrong.' });
    expect(code()).toBe('500');
    expect(message()).toBe('An error occurred, please try again later');
  });

  it('keeps the server detail of an API failure', async () => {
    renderFailingRoute(new ApiError({ status: 503, body: { detail: 'Database is restarting' } }));
    await screen.findByRole('heading', { name: 'Something went wrong.' });
    expect(code()).toBe('503');
    expect(message()).toBe('Database is restarting');
  });

  it('defaults to 500 for an error without a status', async () => {
    renderFailingRoute(new Error('boom'));
    await screen.findByRole('heading', { name: 'Something went wrong.' });
    expect(code()).toBe('500');
    expect(message()).toBe('boom');
  });

  it('falls back to a plain message with a link home when the error page itself fails', () => {
    initI18n('en');
    vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports the caught crash
    // Without a router the page's <Link> throws: the guard must catch it.
    render(<NotFoundPage />);
    const fallback = screen.getByRole('alert');
    expect(fallback.textContent).toContain('The error page itself failed.');
    expect(screen.getByRole('link', { name: 'Back to home page' }).getAttribute('href')).toBe('/');
  });
});
