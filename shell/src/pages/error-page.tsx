import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isApiError } from '@scholia/shared/api';
import { reloadAfterChunkError } from '../routes/chunk-reload-guard.js';
import { messageOf, statusOf } from '../routes/route-error.js';
import { DefaultLayout } from '../layouts/layouts.js';

export interface ErrorPageProps {
  statusCode: number;
  message: string;
}

/** Status code, message, title and a link home (spec §2). */
export function ErrorPage({ statusCode, message }: ErrorPageProps) {
  const { t } = useTranslation();
  return (
    <section className="sch-error-page" data-status={statusCode}>
      <p className="sch-error-page__code">{statusCode}</p>
      <h1>{t('errors.title')}</h1>
      <p className="sch-error-page__message">{message}</p>
      <p>{t('errors.notFoundText')}</p>
      <Link to="/" className="sch-button">{t('common.backToHome')}</Link>
    </section>
  );
}

/** If the error page itself throws, show a static message with a plain link home. */
class ErrorPageGuard extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (this.state.failed) return <FallbackMessage />;
    return this.props.children;
  }
}

function FallbackMessage() {
  const { t } = useTranslation();
  return (
    <p role="alert" className="sch-error-page__fallback">
      {t('errors.fallback')} <a href="/">{t('common.backToHome')}</a>
    </p>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <DefaultLayout>
      <ErrorPageGuard><ErrorPage statusCode={404} message={t('errors.pageNotFound')} /></ErrorPageGuard>
    </DefaultLayout>
  );
}

/** Error page of the route tree: guard errors, failing guard steps, render crashes. */
export function RouteErrorPage({ error }: { error: unknown }) {
  const { t, i18n } = useTranslation();
  reloadAfterChunkError(error);
  const statusCode = statusOf(error);
  let message = messageOf(error);
  // An API failure without a detail only carries a repository code: say it as the HTTP message.
  if (isApiError(error) && !error.detail && i18n.exists(`http.${error.status}`)) message = t(`http.${error.status}`);
  if (statusCode === 404) message = t('errors.pageNotFound');
  if (message === 'Unknown middleware') message = t('errors.unknownMiddleware');
  if (error === null || error === undefined || message === '') message = t('errors.unknown');
  return (
    <DefaultLayout>
      <ErrorPageGuard><ErrorPage statusCode={statusCode} message={message} /></ErrorPageGuard>
    </DefaultLayout>
  );
}
