import { formatNumber } from '@scholia/shared/i18n';

/** Completed share with 2 decimals (spec §9) in the browser's number format; 0 for an empty dataset. */
export function progressPercent(completed: number, total: number): string {
  return formatNumber(total > 0 ? (completed / total) * 100 : 0, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
