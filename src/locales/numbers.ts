/**
 * Numbers as the interface's locale writes them: the one format the first view needs (its
 * step count), apart from format.ts so that the rest loads with the views that use it.
 */
import { formattingLocale } from './localization.js';

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A cached Intl.NumberFormat of these options for the locale. */
export function numberFormat(options: Intl.NumberFormatOptions, locale = formattingLocale()) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** A number for reading: grouped, with as many decimals as it has ("1.234,56"). */
export function formatNumber(value: number, locale?: string): string {
  return numberFormat({ maximumFractionDigits: 20 }, locale).format(value);
}
