import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Question } from '../model/types.js';
import { Markdown } from './markdown.js';

/**
 * The answer as the server stores it: NUL characters (invisible, pasted from some documents) are
 * dropped, since the server refuses text holding them; empty is no answer.
 */
export function storableText(typed: string): string | undefined {
  const text = typed.replaceAll('\u0000', '');
  return text === '' ? undefined : text;
}

/** Free text; with `use_markdown` a Write / Preview switch (spec §3). */
export function TextQuestion({ question, value, onChange }: { question: Question; value: unknown; onChange: (value: unknown) => void }) {
  const { t } = useTranslation('annotation');
  const [preview, setPreview] = useState(false);
  const text = typeof value === 'string' ? value : '';
  const markdown = Boolean(question.settings.use_markdown);
  return (
    <div className="mfe-ann-textq">
      {markdown && (
        <div className="mfe-ann-tabs" role="tablist">
          <button type="button" role="tab" aria-selected={!preview} onClick={() => setPreview(false)}>{t('record.write')}</button>
          <button type="button" role="tab" aria-selected={preview} onClick={() => setPreview(true)}>{t('record.preview')}</button>
        </div>
      )}
      {preview ? (
        <Markdown source={text} className="mfe-ann-textq__preview" />
      ) : (
        <textarea
          aria-label={question.title}
          dir="auto"
          data-question-focus
          data-testid={`question-input-${question.name}`}
          rows={3}
          value={text}
          onChange={(event) => onChange(storableText(event.target.value))}
        />
      )}
    </div>
  );
}
