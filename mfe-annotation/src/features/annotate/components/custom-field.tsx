import DOMPurify from 'dompurify';
import { useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { renderCustomTemplate } from '../model/custom-template.js';
import type { AnnotationRecord } from '../model/types.js';

const subscribeToTheme = (onChange: () => void) => {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'style', 'class'] });
  return () => observer.disconnect();
};

/** A token of the page's theme, kept only when it is a plain colour. */
function themeColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\))$/i.test(value) ? value : fallback;
}

/**
 * The frame's colours, from the page's theme: a frame has its own document, so without them it
 * stays white in the dark and high-contrast themes.
 */
function useFrameColours(): string {
  const theme = useSyncExternalStore(subscribeToTheme, () => document.documentElement.getAttribute('data-theme') ?? '');
  return useMemo(() => {
    const dark = theme === 'dark' || theme === 'high-contrast';
    return `color-scheme:${dark ? 'dark' : 'light'};background:${themeColour('--sch-surface', dark ? '#1e2126' : '#ffffff')};color:${themeColour('--sch-text', dark ? '#e8eaed' : '#1c1e21')}`;
  }, [theme]);
}

/**
 * A custom field (spec §3): the template is rendered in a sandboxed `srcdoc` iframe without
 * `allow-scripts` or `allow-same-origin`, so nothing from a record can run, reach the page or
 * read the token (it lives in the page's localStorage, an origin the frame does not have).
 * Scripts are also removed before rendering: the page CSP (`script-src 'self'`) is inherited by
 * srcdoc frames and would block inline scripts anyway.
 */
export function CustomField({ template, advanced, record, fieldName }: { template: string; advanced: boolean; record: AnnotationRecord; fieldName: string }) {
  const { t } = useTranslation('annotation');
  const colours = useFrameColours();
  const rendered = useMemo(() => {
    try {
      const filled = renderCustomTemplate(template, record, fieldName);
      // FORCE_BODY: a template often starts with its <style>, which the parser would otherwise
      // move to a head that the sanitiser then drops.
      const safe = DOMPurify.sanitize(filled, { WHOLE_DOCUMENT: false, FORCE_BODY: true, FORBID_TAGS: ['script', 'iframe', 'object', 'embed', 'base', 'meta'] });
      return { html: `<!doctype html><html><head><meta charset="utf-8"><style>html{${colours}}body{font:14px/1.5 system-ui,sans-serif;margin:8px}a{color:inherit}</style></head><body>${safe}</body></html>` };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }, [template, record, fieldName, colours]);
  const hasScripts = advanced || /<script/i.test(template);
  if (rendered.error !== undefined) {
    return <p role="alert" className="mfe-ann-field__error" data-testid="template-error">{t('messages.templateError', { reason: rendered.error })}</p>;
  }
  const { html } = rendered;
  return (
    <div className="mfe-ann-custom">
      <iframe className="mfe-ann-custom__frame" sandbox="" srcDoc={html} title={fieldName} referrerPolicy="no-referrer" />
      {hasScripts && <p className="sch-muted">{t('messages.templateScripts')}</p>}
    </div>
  );
}
