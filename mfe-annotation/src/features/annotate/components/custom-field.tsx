import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { renderCustomTemplate } from '../model/custom-template.js';
import type { AnnotationRecord } from '../model/types.js';

/**
 * A custom field (spec §3): the template is rendered in a sandboxed `srcdoc` iframe without
 * `allow-scripts` or `allow-same-origin`, so nothing from a record can run, reach the page or
 * read the token (it lives in the page's localStorage, an origin the frame does not have).
 * Scripts are also removed before rendering: the page CSP (`script-src 'self'`) is inherited by
 * srcdoc frames and would block inline scripts anyway.
 */
export function CustomField({ template, advanced, record, fieldName }: { template: string; advanced: boolean; record: AnnotationRecord; fieldName: string }) {
  const { t } = useTranslation('annotation');
  const rendered = useMemo(() => {
    try {
      const filled = renderCustomTemplate(template, record, fieldName);
      const safe = DOMPurify.sanitize(filled, { WHOLE_DOCUMENT: false, FORBID_TAGS: ['script', 'iframe', 'object', 'embed', 'base', 'meta'] });
      return { html: `<!doctype html><html><head><meta charset="utf-8"><style>body{font:14px/1.5 system-ui,sans-serif;margin:8px;color:#1c1e21}</style></head><body>${safe}</body></html>` };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }, [template, record, fieldName]);
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
