import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { reviewedRecordQuery } from '@scholia/shared/api';
import type { Field } from '../model/types.js';

const EXCERPT_LENGTH = 60;

/** The first words of a record's first text field with content, to name it; none when it has none. */
export function recordExcerpt(recordFields: Record<string, unknown>, fields: Field[]): string | undefined {
  for (const field of fields) {
    const value = recordFields[field.name];
    if (field.settings.type !== 'text' || typeof value !== 'string' || !value.trim()) continue;
    const text = value.replace(/\s+/g, ' ').trim();
    if (text.length <= EXCERPT_LENGTH) return text;
    const cut = text.slice(0, EXCERPT_LENGTH);
    const lastSpace = cut.lastIndexOf(' ');
    return `${(lastSpace > EXCERPT_LENGTH / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:.]+$/, '')}…`;
  }
  return undefined;
}

/** "Records similar to “…”": the record named by its text (or external id), never by its uuid. */
export function SimilarTo({ recordId, fields }: { recordId: string; fields: Field[] }) {
  const { t } = useTranslation('annotation');
  const record = useQuery({ ...reviewedRecordQuery(recordId), retry: false }).data;
  const name = record ? (recordExcerpt(record.fields, fields) ?? record.external_id ?? undefined) : undefined;
  return <span data-testid="similar-to">{name ? t('similarity.active', { record: name }) : t('similarity.activeUnnamed')}</span>;
}
