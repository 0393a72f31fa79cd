import { useTranslation } from 'react-i18next';
import { formatNumber } from '@scholia/shared/i18n';
import { mappedFields, splitOptions, type DatasetConfiguration } from '../domain/dataset-configuration.js';
import { previewSuggestion } from '../domain/preview.js';
import { CellView } from './cell-view.js';

/** Live preview of the first row as a record: mapped fields, then questions with (fake) suggestions. */
export function RecordPreview({ config, row }: { config: DatasetConfiguration; row?: Record<string, unknown> }) {
  const { t } = useTranslation('hubImport');
  const fields = mappedFields(config);
  return (
    <section className="mfe-hub-import__preview" aria-label={t('editor.preview')}>
      <h2>{t('editor.preview')}</h2>
      <p className="sch-muted">{t('editor.previewHint')}</p>
      {fields.length === 0 && <p className="sch-muted">{t('editor.noFields')}</p>}
      {fields.map((f) => (
        <div key={f.column.name} className="mfe-hub-import__preview-field" data-field={f.column.name}>
          <h3>{f.title.trim() || f.column.name}</h3>
          <CellView column={f.role.type === 'text' && f.column.kind !== 'text' ? { ...f.column, kind: 'text' } : f.column} cell={row?.[f.column.name]} />
        </div>
      ))}
      {config.questions.map((q) => {
        const suggestion = previewSuggestion(config, q, row);
        const suggested = new Set(Array.isArray(suggestion?.value) ? suggestion.value.map(String) : suggestion ? [String(suggestion.value)] : []);
        const scores = Array.isArray(suggestion?.score) ? suggestion.score : suggestion?.score !== undefined ? [suggestion.score] : [];
        const options = q.type === 'text' ? [] : splitOptions(q.options).filter(Boolean);
        return (
          <div key={q.key} className="mfe-hub-import__preview-question" data-question={q.name}>
            <h3>{q.title || q.name}{q.required ? ' *' : ''}</h3>
            <ul className="mfe-hub-import__chips">
              {options.map((option) => {
                const index = [...suggested].indexOf(option);
                return (
                  <li key={option} data-suggested={suggested.has(option) || undefined}>
                    {option}
                    {index >= 0 && scores[index] !== undefined && (
                      <small> {t('editor.score', { score: formatNumber(scores[index], { minimumFractionDigits: 1, maximumFractionDigits: 1 }) })}</small>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
