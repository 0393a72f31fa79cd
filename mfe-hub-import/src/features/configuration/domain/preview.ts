import { splitOptions, suggestionColumnOf, type DatasetConfiguration } from './dataset-configuration.js';
import type { HubColumn } from './hub-columns.js';
import type { QuestionConfig } from './question-defaults.js';

export interface PreviewSuggestion {
  value: string | string[] | number;
  /** One score per value (multi-label) or a single score. */
  score?: number | number[];
}

/** A hub cell as the record would hold it: ClassLabel index → name, image cell → its src. */
export function previewCell(column: HubColumn, cell: unknown): unknown {
  if (cell === null || cell === undefined) return undefined;
  if (column.kind === 'classLabel') return typeof cell === 'number' && cell >= 0 ? column.labels?.[cell] : undefined;
  if (column.kind === 'multiLabel') return Array.isArray(cell) ? cell.map((i) => (typeof i === 'number' ? column.labels?.[i] : i)).filter(Boolean) : undefined;
  if (column.kind === 'image') return typeof cell === 'object' && cell && 'src' in cell ? (cell as { src: string }).src : cell;
  return cell;
}

/**
 * The preview's suggestion of a question: the first row's value of its suggestion column, else a
 * fake one (spec §9: multi-label with more than 3 options → first 2 options, scores 0.5 and 0.7).
 */
export function previewSuggestion(config: DatasetConfiguration, question: QuestionConfig, row: Record<string, unknown> | undefined): PreviewSuggestion | undefined {
  const source = suggestionColumnOf(config, question.key);
  if (source && row) {
    const column = config.columns.find((c) => c.column.name === source)?.column;
    const value = column ? previewCell(column, row[source]) : undefined;
    if (value !== undefined && value !== null && value !== '') return { value: value as PreviewSuggestion['value'] };
  }
  const options = splitOptions(question.options).filter(Boolean);
  switch (question.type) {
    case 'multi_label_selection':
      return options.length > 3 ? { value: options.slice(0, 2), score: [0.5, 0.7] } : options[0] ? { value: [options[0]], score: [0.5] } : undefined;
    case 'label_selection':
    case 'rating':
      return options[0] ? { value: question.type === 'rating' ? Number(options[0]) : options[0], score: 0.5 } : undefined;
    case 'ranking':
      return options.length ? { value: options } : undefined;
    default:
      return undefined;
  }
}
