import type { FormatterModule } from 'i18next';

/** Numbers follow the browser's language, not the interface language (spec §1). */
export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  const locale = typeof navigator !== 'undefined' ? navigator.language : 'en';
  return new Intl.NumberFormat(locale, options).format(value);
}

/**
 * A percentage (given from 0 to 100) in the browser's number format, the sign placed as its language
 * places it: "12.50%" in English, "12,50 %" in German.
 */
export function formatPercent(value: number, fractionDigits: number): string {
  return formatNumber(value / 100, { style: 'percent', minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits });
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

type NamedFormat = (value: unknown, lng: string | undefined, options: unknown) => string;

/**
 * An i18next formatter that writes every number put into a message in the browser's number format
 * (with `interpolation.alwaysFormat`): counts such as "12,345 pending" included, which i18next
 * would otherwise write as bare digits. Named formats (`{{value, name}}`) are the ones added.
 */
export function createNumberFormatter(): FormatterModule {
  const named = new Map<string, NamedFormat>();
  return {
    type: 'formatter',
    init: () => {},
    add: (name, format) => void named.set(name.toLowerCase(), format),
    addCached: (name, cached) => void named.set(name.toLowerCase(), (value, lng, options) => cached(lng, options)(value)),
    format: (value, format, lng, options) => {
      const apply = format ? named.get(format.toLowerCase()) : undefined;
      if (apply) return apply(value, lng, options);
      return typeof value === 'number' ? formatNumber(value) : value;
    },
  };
}
