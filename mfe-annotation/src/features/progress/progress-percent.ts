import { formatPercent } from '@scholia/shared/i18n';

/** Completed share with 2 decimals (spec §9) in the browser's number format; 0 for an empty dataset. */
export function progressPercent(completed: number, total: number): string {
  return formatPercent(total > 0 ? (completed / total) * 100 : 0, 2);
}
