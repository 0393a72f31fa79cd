import { Fragment, lazy, memo, Suspense, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchHighlight } from './use-search-highlight.js';
import { useTranslation } from 'react-i18next';
import type { AnnotationRecord, Field } from '../model/types.js';
import { Markdown } from './markdown.js';
import { termsIn, type SearchMarks } from '../model/search-terms.js';

// DOMPurify loads only for datasets with a custom field.
const CustomField = lazy(() => import('./custom-field.js').then((m) => ({ default: m.CustomField })));

interface ChatMessage {
  role: string;
  content: string;
}

/** Chat content is a list of {role, content}; a plain value becomes one user message (spec §3). */
export function toChatMessages(value: unknown): ChatMessage[] {
  if (Array.isArray(value)) return value.map((m) => ({ role: String((m as ChatMessage).role ?? 'user'), content: String((m as ChatMessage).content ?? '') }));
  if (value === null || value === undefined) return [];
  return [{ role: 'user', content: typeof value === 'string' ? value : JSON.stringify(value) }];
}

function ImageField({ src, title }: { src: string; title: string }) {
  const { t } = useTranslation('annotation');
  const [failed, setFailed] = useState(false);
  if (failed || !src) return <p role="alert" className="mfe-ann-field__error">{t('messages.imageFailed')}</p>;
  return <img className="mfe-ann-field__image" src={src} alt={title} onError={() => setFailed(true)} />;
}

function ChatField({ value, markdown }: { value: unknown; markdown: boolean }) {
  const { t } = useTranslation('annotation');
  const messages = useMemo(() => toChatMessages(value), [value]);
  return (
    <ol className="mfe-ann-chat">
      {messages.map((message, index) => (
        <li key={index} className={`mfe-ann-chat__message mfe-ann-chat__message--${message.role === 'user' ? 'user' : 'other'}`} data-role={message.role}>
          <span className="mfe-ann-chat__role">{message.role === 'user' ? t('record.user') : message.role === 'assistant' ? t('record.assistant') : message.role}</span>
          {markdown ? <Markdown source={message.content} /> : <p className="mfe-ann-text" dir="auto">{message.content}</p>}
        </li>
      ))}
    </ol>
  );
}

const NO_TERMS: readonly string[] = [];

/** Memoised: answering a question re-renders the form, never the record's fields. */
export const FieldView = memo(function FieldView({ field, record, collapsed, terms = NO_TERMS }: { field: Field; record: AnnotationRecord; collapsed?: boolean; terms?: readonly string[] }) {
  const value = record.fields[field.name];
  const bodyRef = useRef<HTMLDivElement>(null);
  const settingsType = (field.settings as { type: string }).type;
  useSearchHighlight(bodyRef, settingsType === 'text' ? terms : NO_TERMS);
  const settings = field.settings as { type: string; use_markdown?: boolean; template?: string; advanced_mode?: boolean };
  let body;
  switch (settings.type) {
    case 'image':
      body = <ImageField src={typeof value === 'string' ? value : ''} title={field.title} />;
      break;
    case 'chat':
      body = <ChatField value={value} markdown={Boolean(settings.use_markdown)} />;
      break;
    case 'custom':
      body = (
        <Suspense fallback={<p className="sch-loading" aria-busy="true">…</p>}>
          <CustomField template={settings.template ?? ''} advanced={Boolean(settings.advanced_mode)} record={record} fieldName={field.name} />
        </Suspense>
      );
      break;
    default: {
      const text = value === null || value === undefined ? '' : String(value);
      body = settings.use_markdown ? <Markdown source={text} /> : <p className="mfe-ann-text" dir="auto">{text}</p>;
    }
  }
  return (
    <section className={`mfe-ann-field${collapsed ? ' mfe-ann-field--collapsed' : ''}`} data-testid={`field-${field.name}`} aria-label={field.title}>
      <h2 className="mfe-ann-field__title" dir="auto">{field.title}</h2>
      <div ref={bodyRef}>{body}</div>
    </section>
  );
});

/**
 * Every field of a record, in order, except those skipped; `replace` draws a field its own way (a
 * span question's text, where the annotator selects spans).
 */
export const RecordFields = memo(function RecordFields({ fields, record, skip, collapsed, replace, search }: {
  fields: Field[]; record: AnnotationRecord; skip?: Set<string>; collapsed?: boolean; replace?: ReadonlyMap<string, ReactNode>;
  /** The text search whose words are marked: in every text field, or in `field` alone. */
  search?: SearchMarks;
}) {
  return (
    <div className="mfe-ann-fields">
      {fields.filter((f) => !skip?.has(f.name)).map((field) => <Fragment key={field.id}>{replace?.get(field.name) ?? <FieldView field={field} record={record} collapsed={collapsed} terms={termsIn(search, field.name)} />}</Fragment>)}
    </div>
  );
});
