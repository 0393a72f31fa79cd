/** Numbers follow the browser's language, not the interface language (spec §1). */
export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  const locale = typeof navigator !== 'undefined' ? navigator.language : 'en';
  return new Intl.NumberFormat(locale, options).format(value);
}

/** Compact form with a configurable number of fraction digits (spec §9). */
export function formatCompactNumber(value: number, fractionDigits = 1): string {
  return formatNumber(value, { notation: 'compact', maximumFractionDigits: fractionDigits });
}

/** Dataset timestamps are naive UTC (contract §0); read them as UTC before formatting. */
export function formatDate(naiveUtc: string, language: string): string {
  const iso = /[zZ]|[+-]\d\d:\d\d$/.test(naiveUtc) ? naiveUtc : `${naiveUtc}Z`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return naiveUtc;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
