import { useEffect } from 'react';
import type { AnnotationAppProps } from '@scholia/shared';
import { configureApi, writeToken } from '@scholia/shared/api';
import { isLanguage } from '@scholia/shared/i18n';
import { annotationI18n } from '../i18n/register-annotation-i18n.js';

type HostConnection = Pick<AnnotationAppProps, 'apiBaseUrl' | 'token' | 'apiKey' | 'language'>;

/**
 * Applies the host's server, credentials and language before the screen reads anything. A host
 * that passes no connection (Scholia's shell, same origin) keeps the page's API client as it is.
 */
export function useHostConnection({ apiBaseUrl, token, apiKey, language }: HostConnection): void {
  if (apiBaseUrl !== undefined || apiKey !== undefined || token !== undefined) configureApi({ baseUrl: apiBaseUrl, apiKey });
  if (token) writeToken(token);
  useEffect(() => {
    if (isLanguage(language) && annotationI18n.language !== language) void annotationI18n.changeLanguage(language);
  }, [language]);
}
