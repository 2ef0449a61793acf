/**
 * The one parser of numbers people type, in the interface's locale (the results editor's
 * number fields). Apart from format.ts so that only the results view loads it.
 */
import { formattingLocale } from './localization.js';

const separatorsByLocale = new Map<string, { group: string; decimal: string }>();

function separators(locale: string): { group: string; decimal: string } {
  let found = separatorsByLocale.get(locale);
  if (!found) {
    const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
    found = {
      group: parts.find((part) => part.type === 'group')?.value ?? ',',
      decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
    };
    separatorsByLocale.set(locale, found);
  }
  return found;
}

/**
 * A number as a person types it, in their locale or in an unambiguous other way: "1.234,56"
 * where the locale writes it so, "1,234.56", "1 234,56", "1'234.56", "-12", Arabic-Indic
 * digits. One separator followed by exactly three digits is read as the locale reads it
 * (a thousands separator in German "1.234", a decimal point in English); with both a dot
 * and a comma the last one is the decimal separator. NaN when the text is not a number.
 */
export function parseNumber(text: string, locale = formattingLocale()): number {
  const local = separators(locale);
  let normalized = text
    .trim()
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0))
    .replace(/\u066b/g, '.')
    .replace(/[\s\u00a0\u202f'’\u066c\u061c\u200e\u200f]/g, '')
    .replace(/^[−–]/, '-');
  if (local.decimal !== '.' && local.decimal !== ',' && normalized.includes(local.decimal))
    normalized = normalized.replace(local.decimal, '.');
  const match = /^([+-]?)([\d.,]+)$/.exec(normalized);
  if (!match || !/\d/.test(match[2]!)) return Number.NaN;
  const [, sign, body] = match as unknown as [string, string, string];
  const dots = body.split('.').length - 1;
  const commas = body.split(',').length - 1;
  let decimal: string | undefined;
  if (dots > 0 && commas > 0) decimal = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ',';
  else if (dots + commas === 1) {
    const separator = dots ? '.' : ',';
    const groupLike = /^\d+[.,]\d{3}$/.test(body);
    decimal =
      separator !== local.decimal && separator === local.group && groupLike ? undefined : separator;
  }
  if (decimal && body.split(decimal).length > 2) return Number.NaN;
  const [integer = '', fraction] = decimal ? body.split(decimal) : [body];
  // Whatever separates the integer part groups its digits: threes, or the twos of an Indian
  // lakh ("12,34,567"), ending in a three. "12.34.5" is a typing slip, not a number.
  if (/[.,]/.test(integer) && !/^\d{1,3}(?:[.,]\d{2,3})*[.,]\d{3}$/.test(integer))
    return Number.NaN;
  if (fraction !== undefined && !/^\d*$/.test(fraction)) return Number.NaN;
  return Number(`${sign}${integer.replace(/[.,]/g, '') || '0'}.${fraction ?? ''}`);
}
