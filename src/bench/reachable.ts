/**
 * Whether a truth value is present in text the engine read, however the document writes
 * it: the reading benchmark's judge (`reading.ts`). Text is compared ignoring case and
 * runs of whitespace; a date counts in any of the notations people print (03/03/2021,
 * 3.3.21, 2021-03-03, 3 March 2021, March 3, 2021, 3. März 2021, 3 de marzo de 2021,
 * 2021年3月3日, 03 MAR/MARS 2021, the 3rd day of March, 2021…, either day or month first); a number with either
 * decimal mark, with or without thousands separators (1234.5 as 1,234.50, 1.234,50,
 * 1 234,50, 1234.5); a currency code as its sign (EUR as €). Lenient on purpose: it asks whether the value can be reached at all,
 * not whether a rule would pick it.
 */

/** The languages whose month names count, those of the interface and the corpora. */
const monthLocales = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pl',
  'pt',
  'sv',
  'fi',
  'cs',
  'hu',
  'hr',
  'is',
];

const monthNameCache = new Map<number, string[]>();

/** Every name of month `month` (1–12), long and short, nominative and as in a date. */
function monthNames(month: number): string[] {
  const cached = monthNameCache.get(month);
  if (cached) return cached;
  const date = new Date(Date.UTC(2021, month - 1, 15));
  const names = new Set<string>();
  for (const locale of monthLocales) {
    for (const style of ['long', 'short'] as const) {
      names.add(new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' }).format(date));
      // In a date, some languages decline the month ("3 marca 2021"): take it from there.
      const parts = new Intl.DateTimeFormat(locale, {
        day: 'numeric',
        month: style,
        year: 'numeric',
        timeZone: 'UTC',
      }).formatToParts(date);
      const inDate = parts.find((part) => part.type === 'month')?.value;
      if (inDate) names.add(inDate);
    }
  }
  const found = [...names]
    .map((name) => name.toLowerCase().replace(/\.$/, ''))
    .filter((name) => /^\p{L}{3,}$/u.test(name));
  // English three-letter forms, as most passports and tickets print them ("SEPT" aside).
  found.push(
    new Intl.DateTimeFormat('en', { month: 'short' }).format(date).slice(0, 3).toLowerCase(),
  );
  const unique = [...new Set(found)].sort((a, b) => b.length - a.length);
  monthNameCache.set(month, unique);
  return unique;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A pattern matching the ISO date `iso` (YYYY-MM-DD) in the notations people print. */
export function datePattern(iso: string): RegExp | undefined {
  const parts = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!parts) return undefined;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const d = `0?${day}`;
  const m = `0?${month}`;
  const y = `(?:${year}|${String(year).slice(2)})`;
  const sep = '[./\\- ]\\s?';
  const names = monthNames(month).map(escapeRegex).join('|');
  const ordinal = '(?:\\.|st|nd|rd|th|er)?';
  const named = `(?:${names})\\.?(?:\\s?/\\s?\\p{L}+\\.?)?`;
  const alternatives = [
    `${d}${sep}${m}${sep}${y}`,
    `${m}${sep}${d}${sep}${y}`,
    `${year}${sep}${m}${sep}${d}`,
    `${year}\\s?年\\s?${month}\\s?月\\s?${day}\\s?日`,
    `${d}${ordinal}[\\s\\-]?(?:de\\s)?${named}[\\s\\-,]*(?:de\\s)?${y}`,
    `${named}\\s?${d}${ordinal},?\\s?${y}`,
    // As contracts write it: "this 6th day of April, 1999".
    `${d}${ordinal}\\s?day\\sof\\s${named},?\\s?${y}`,
  ];
  return new RegExp(`(?<![\\p{N}])(?:${alternatives.join('|')})(?![\\p{N}])`, 'iu');
}

/** A pattern matching the number `value` with either decimal mark and any grouping. */
export function numberPattern(value: number): RegExp {
  const negative = value < 0;
  const absolute = Math.abs(value);
  const [whole, cents] = absolute.toFixed(2).split('.') as [string, string];
  const separator = "[,. '\u00a0\u202f]?";
  // Thousands grouped by three, or as India groups them: 7,08,000.
  const western = whole.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  const indian = whole.replace(/\B(?=(?:\d{2})*\d{3}(?!\d))/g, separator);
  const grouped = western === indian ? western : `(?:${western}|${indian})`;
  // The decimals as far as they matter: 1234.5 may be printed 1234.5 or 1234.50; 7 as 7,
  // 7.00 or 7,-.
  const decimals =
    cents === '00'
      ? '(?:[.,](?:00?|-))?'
      : cents.endsWith('0')
        ? `[.,]${cents[0]}0?`
        : `[.,]${cents}`;
  const sign = negative ? '-?\\s?' : '';
  return new RegExp(`(?<![\\p{N}]|\\p{N}[.,])${sign}${grouped}${decimals}(?![.,]?\\p{N})`, 'u');
}

/** The signs a currency code is printed as ("EUR" as €), as the English locale knows them. */
function currencySigns(code: string): string[] {
  const signs: string[] = [];
  for (const currencyDisplay of ['symbol', 'narrowSymbol'] as const) {
    try {
      const sign = new Intl.NumberFormat('en', {
        style: 'currency',
        currency: code,
        currencyDisplay,
      })
        .formatToParts(1)
        .find((part) => part.type === 'currency')?.value;
      if (sign && sign !== code) signs.push(sign.toLowerCase());
    } catch {
      // not a currency code
    }
  }
  return signs;
}

export type TruthValue = string | number | boolean;

/** Whether `value` (a date when `isDate`) is present in `text`; `accept` are other forms that count. */
export function isReachable(
  text: string,
  value: TruthValue,
  options: { isDate?: boolean; accept?: readonly TruthValue[] } = {},
): boolean {
  const haystack = normaliseText(text);
  const candidates = [value, ...(options.accept ?? [])];
  return candidates.some((candidate) => {
    if (typeof candidate === 'number') return numberPattern(candidate).test(haystack);
    if (typeof candidate === 'boolean') return false;
    const date =
      options.isDate || /^\d{4}-\d{2}-\d{2}$/.test(candidate) ? datePattern(candidate) : undefined;
    if (date && date.test(haystack)) return true;
    if (/^-?\d+(?:\.\d+)?$/.test(candidate) && numberPattern(Number(candidate)).test(haystack))
      return true;
    const needle = normaliseText(candidate);
    if (needle !== '' && haystack.includes(needle)) return true;
    // A currency code counts when its sign is printed: a reader gives "€", a rule the code.
    return (
      /^[A-Z]{3}$/.test(candidate) &&
      currencySigns(candidate).some((sign) => haystack.includes(sign))
    );
  });
}
