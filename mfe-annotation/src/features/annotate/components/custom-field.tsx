import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnnotationRecord } from '../model/types.js';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function lookup(root: unknown, path: string): unknown {
  let current = root;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Fills `{{record.fields.x.y}}`, `{{record.metadata.k}}` and, as a shortcut, `{{y}}` (a key of
 * this field's own value) with HTML-escaped values. Objects are shown as JSON.
 */
export function fillTemplate(template: string, record: AnnotationRecord, fieldName: string): string {
  const scope = { record: { id: record.id, fields: record.fields, metadata: record.metadata ?? {} } };
  return template.replace(/\{\{\{?\s*([\w.$-]+)\s*\}?\}\}/g, (_, path: string) => {
    let value = lookup(scope, path);
    if (value === undefined) value = lookup(record.fields[fieldName], path);
    if (value === undefined || value === null) return '';
    return escapeHtml(typeof value === 'object' ? JSON.stringify(value) : String(value));
  });
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
  const html = useMemo(() => {
    const filled = fillTemplate(template, record, fieldName);
    const safe = DOMPurify.sanitize(filled, { WHOLE_DOCUMENT: false, FORBID_TAGS: ['script', 'iframe', 'object', 'embed', 'base', 'meta'] });
    return `<!doctype html><html><head><meta charset="utf-8"><style>body{font:14px/1.5 system-ui,sans-serif;margin:8px;color:#1c1e21}</style></head><body>${safe}</body></html>`;
  }, [template, record, fieldName]);
  const hasScripts = advanced || /<script/i.test(template);
  return (
    <div className="mfe-ann-custom">
      <iframe className="mfe-ann-custom__frame" sandbox="" srcDoc={html} title={fieldName} referrerPolicy="no-referrer" />
      {hasScripts && <p className="sch-muted">{t('messages.templateScripts')}</p>}
    </div>
  );
}
