/**
 * Finding typed values in text: dates, amounts, currencies, percentages, emails, IBANs.
 * Each finder returns every match with its place in the text, so the caller can pick by
 * position (next to a label, under a header) and record where the value was found.
 */
import { isValidIban } from '../../../contract/schema-validation.js';

export interface Found<T> {
  start: number;
  end: number;
  value: T;
}

// ---------------------------------------------------------------------------------------
// Dates

/** Month names and abbreviations in English, Dutch, German, French, Spanish, Italian, Portuguese and Polish. */
const monthNames: Record<string, number> = {};
const monthLists: string[][] = [
  // en
  [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ],
  ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  ['', '', '', '', '', '', '', '', 'sept'],
  // nl
  [
    'januari',
    'februari',
    'maart',
    'april',
    'mei',
    'juni',
    'juli',
    'augustus',
    'september',
    'oktober',
    'november',
    'december',
  ],
  ['', '', 'mrt', '', '', '', '', '', '', 'okt'],
  // de
  [
    'januar',
    'februar',
    'märz',
    'april',
    'mai',
    'juni',
    'juli',
    'august',
    'september',
    'oktober',
    'november',
    'dezember',
  ],
  ['jänner', 'feber', 'maerz', '', '', '', '', '', '', '', '', 'dez'],
  ['', '', 'mär'],
  // fr
  [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
  ['janv', 'févr', '', 'avr', '', '', 'juil', 'aout', '', '', '', 'déc'],
  ['', 'fevrier', '', '', '', '', '', '', '', '', '', 'decembre'],
  // es
  [
    'enero',
    'febrero',
    'marzo',
    'abril',
    'mayo',
    'junio',
    'julio',
    'agosto',
    'septiembre',
    'octubre',
    'noviembre',
    'diciembre',
  ],
  ['ene', '', '', 'abr', '', '', '', 'ago', 'setiembre', '', '', 'dic'],
  // it
  [
    'gennaio',
    'febbraio',
    'marzo',
    'aprile',
    'maggio',
    'giugno',
    'luglio',
    'agosto',
    'settembre',
    'ottobre',
    'novembre',
    'dicembre',
  ],
  // pt
  [
    'janeiro',
    'fevereiro',
    'março',
    'abril',
    'maio',
    'junho',
    'julho',
    'agosto',
    'setembro',
    'outubro',
    'novembro',
    'dezembro',
  ],
  // pl (nominative and genitive, as in "1 stycznia 2021")
  [
    'styczeń',
    'luty',
    'marzec',
    'kwiecień',
    'maj',
    'czerwiec',
    'lipiec',
    'sierpień',
    'wrzesień',
    'październik',
    'listopad',
    'grudzień',
  ],
  [
    'stycznia',
    'lutego',
    'marca',
    'kwietnia',
    'maja',
    'czerwca',
    'lipca',
    'sierpnia',
    'września',
    'października',
    'listopada',
    'grudnia',
  ],
];
for (const list of monthLists)
  list.forEach((name, index) => name && (monthNames[name] = index + 1));

const monthAlternation = Object.keys(monthNames)
  .sort((a, b) => b.length - a.length)
  .join('|');

const before = '(?<![\\p{L}\\p{N}])';
const after = '(?![\\p{L}\\p{N}])';
const isoPattern = new RegExp(`${before}(\\d{4})([-/.])(\\d{1,2})\\2(\\d{1,2})${after}`, 'gu');
const numericPattern = new RegExp(
  `${before}(\\d{1,2})([-/.])(\\d{1,2})\\2(\\d{4}|\\d{2})${after}`,
  'gu',
);
const dayMonthPattern = new RegExp(
  `${before}(\\d{1,2})(?:st|nd|rd|th|er|\\.)?[ \\t]*(?:(?:day[ \\t]+of|de)[ \\t]+)?(${monthAlternation})\\.?,?[ \\t]*(?:de[ \\t]+)?(\\d{4})${after}`,
  'giu',
);
const monthDayPattern = new RegExp(
  `${before}(${monthAlternation})\\.?[ \\t]+(\\d{1,2})(?:st|nd|rd|th)?[ \\t]*,?[ \\t]*(\\d{4})${after}`,
  'giu',
);

export type DateOrder = 'dmy' | 'mdy';

function isoDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function fullYear(text: string): number {
  const year = Number(text);
  if (text.length === 4) return year;
  return year < 70 ? 2000 + year : 1900 + year;
}

/**
 * Which order numeric dates like 03/08/2014 follow in a text: a date whose first part
 * exceeds 12 settles day-first, one whose second part does settles month-first; US-style
 * written dates ("August 3, 2014") and dollar amounts lean month-first. Without any sign,
 * day-first, as most of the world writes.
 */
export function dateOrderOf(text: string): DateOrder {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const match of text.matchAll(numericPattern)) {
    const first = Number(match[1]);
    const second = Number(match[3]);
    if (first > 12 && second <= 12) dayFirst++;
    else if (second > 12 && first <= 12) monthFirst++;
  }
  if (dayFirst !== monthFirst) return dayFirst > monthFirst ? 'dmy' : 'mdy';
  const written =
    [...text.matchAll(monthDayPattern)].length - [...text.matchAll(dayMonthPattern)].length;
  if (written !== 0) return written > 0 ? 'mdy' : 'dmy';
  // A dollar sign leans month-first, unless the document's country signs name another
  // country ("$" is also what OCR makes of a smudge on a Malaysian receipt).
  const countries = [...currencyCues(text).keys()];
  if (countries.some((code) => !monthFirstCurrencies.has(code))) return 'dmy';
  return /\$\s?\d|\bUSD\b/.test(text) && !/[€£₹]/.test(text) ? 'mdy' : 'dmy';
}

/** The currencies of countries that write numeric dates month first, or often do. */
const monthFirstCurrencies = new Set(['USD', 'CAD']);

/** Every calendar date in the text, as ISO 8601 (YYYY-MM-DD). */
export function findDates(text: string, order: DateOrder = dateOrderOf(text)): Found<string>[] {
  const found: Found<string>[] = [];
  const add = (start: number, length: number, value: string | undefined) => {
    if (!value) return;
    if (found.some((other) => start < other.end && start + length > other.start)) return;
    found.push({ start, end: start + length, value });
  };
  for (const match of text.matchAll(isoPattern)) {
    add(
      match.index,
      match[0].length,
      isoDate(Number(match[1]), Number(match[3]), Number(match[4])),
    );
  }
  // Japanese: "2021年3月3日".
  for (const match of text.matchAll(/(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/gu)) {
    add(
      match.index,
      match[0].length,
      isoDate(Number(match[1]), Number(match[2]), Number(match[3])),
    );
  }
  for (const match of text.matchAll(dayMonthPattern)) {
    add(
      match.index,
      match[0].length,
      isoDate(Number(match[3]), monthNames[match[2]!.toLowerCase()]!, Number(match[1])),
    );
  }
  for (const match of text.matchAll(monthDayPattern)) {
    add(
      match.index,
      match[0].length,
      isoDate(Number(match[3]), monthNames[match[1]!.toLowerCase()]!, Number(match[2])),
    );
  }
  for (const match of text.matchAll(numericPattern)) {
    const first = Number(match[1]);
    const second = Number(match[3]);
    const year = fullYear(match[4]!);
    // Two-digit years are only trusted with a separator other than a dot (1.5.20 is as
    // likely a version or a section number as a date).
    if (match[4]!.length === 2 && match[2] === '.') continue;
    const dayFirst = first > 12 || (second <= 12 && order === 'dmy');
    add(
      match.index,
      match[0].length,
      dayFirst ? isoDate(year, second, first) : isoDate(year, first, second),
    );
  }
  return found.sort((a, b) => a.start - b.start);
}

// ---------------------------------------------------------------------------------------
// Amounts

/**
 * A number as amounts are written: an optional sign, digits with thousands separators
 * (comma, dot, apostrophe, a non-breaking or thin space), and a decimal part after a comma
 * or a dot. A plain space groups thousands only before a decimal comma ("1 230,00", as
 * French and Polish write): elsewhere it separates a quantity from a price ("1 278.61").
 * Indian grouping ("7,08,000.00": lakh and crore) is read as one number, and a dash in
 * place of the cents ("12.100,-", "300.––") as none.
 */
const amountPattern = new RegExp(
  `(?<![\\p{N}]|[\\p{N}][.,'’])([-−–]\\s?)?(\\d{1,3}(?: \\d{3})+,\\d{2}(?!\\d)|\\d{1,2}(?:,\\d{2})+,\\d{3}(?:\\.\\d{1,2})?(?![\\d,])|\\d{1,3}(?:[,.'’\\u00a0\\u202f]\\d{3})+(?:[.,]\\d{1,4})?|\\d+(?:[.,]\\d{1,4})?)((?:[.,][-–—]{1,2})(?![\\p{L}\\d]))?(?![\\p{L}\\d]|[.,]\\d)`,
  'gu',
);

export type DecimalMark = '.' | ',';

/**
 * The decimal mark a text uses, judged from the numbers that settle it: both marks in one
 * number (1.234,56), or one mark followed by other than three digits (12,50).
 */
export function decimalMarkOf(text: string): DecimalMark | undefined {
  let comma = 0;
  let dot = 0;
  for (const match of text.matchAll(amountPattern)) {
    const digits = match[2]!;
    const lastComma = digits.lastIndexOf(',');
    const lastDot = digits.lastIndexOf('.');
    if (lastComma >= 0 && lastDot >= 0) {
      if (lastComma > lastDot) comma++;
      else dot++;
    } else if (lastComma >= 0 || lastDot >= 0) {
      const at = Math.max(lastComma, lastDot);
      const decimals = digits.length - at - 1;
      const occurrences = digits.split(digits[at]!).length - 1;
      if (occurrences === 1 && decimals !== 3) {
        if (lastComma >= 0) comma++;
        else dot++;
      }
    }
  }
  if (comma === dot) return undefined;
  return comma > dot ? ',' : '.';
}

/** The number a written amount stands for; `mark` settles "1,234" and "1.234". */
export function parseAmount(written: string, mark?: DecimalMark): number | undefined {
  const negative = /^[-−–]/.test(written.trim()) || /^\(.*\)$/.test(written.trim());
  const digits = written.replace(/[^\d.,'’\u00a0\u202f ]/g, '').replace(/['’\u00a0\u202f ]/g, '');
  if (!/\d/.test(digits)) return undefined;
  const lastComma = digits.lastIndexOf(',');
  const lastDot = digits.lastIndexOf('.');
  let normalised: string;
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    const thousands = decimal === ',' ? '.' : ',';
    normalised = digits.split(thousands).join('').replace(decimal, '.');
  } else if (lastComma >= 0 || lastDot >= 0) {
    const separator = lastComma >= 0 ? ',' : '.';
    const parts = digits.split(separator);
    const decimals = parts[parts.length - 1]!.length;
    const isDecimal =
      parts.length === 2 &&
      (decimals !== 3 || separator === mark || (mark === undefined && parts[0] === '0'));
    normalised = isDecimal ? parts.join('.') : parts.join('');
  } else normalised = digits;
  const value = Number(normalised);
  if (!Number.isFinite(value)) return undefined;
  return negative ? -value : value;
}

/** Whether the letters just before `start` are a currency written against its figure. */
function isCurrencyPrefix(text: string, start: number): boolean {
  const letters = /(?<![\p{L}])\p{L}{1,3}$/u.exec(text.slice(Math.max(0, start - 4), start))?.[0];
  return !!letters && (currencyCodes.has(letters) || /^(?:RM|Rs|Kč|zł)$/u.test(letters));
}

/**
 * OCR misreads a few digits as look-alike letters ("O.00", "l0.50", "1O.9O"), and spaces
 * a figure around its decimal mark ("4. 00", "41 .50"); after a ringgit sign it may do
 * both and take the mark for a dash ("RMS - OO" for RM5.00). In a token that is otherwise
 * a figure with two decimals, the letters are read as the digits they stand for and the
 * figure is closed up, moved to the right end of its place: the text keeps its length,
 * so every offset stays true.
 */
function readableDigits(text: string): { text: string; closedUp: Found<string>[] } {
  const closedUp: Found<string>[] = [];
  const digits = (token: string) =>
    token.replace(/[Oo]/g, '0').replace(/[Il]/g, '1').replace(/S/g, '5');
  const closed = (whole: string, units: string, decimals: string, at: number) => {
    const figure = `${digits(units)}.${digits(decimals)}`;
    closedUp.push({ start: at, end: at + whole.length, value: whole });
    return ' '.repeat(whole.length - figure.length) + figure;
  };
  const readable = text
    .replace(
      /(?<=(?<![\p{L}])RM ?)([\dOoIlS]{1,4})( ?[.,-] ?)([\dOoIlS]{2})(?![\p{L}\p{N}])/gu,
      (whole, units: string, mark: string, decimals: string, at: number) =>
        /[OoIlS]/.test(whole) || mark.trim() !== mark ? closed(whole, units, decimals, at) : whole,
    )
    .replace(
      /(?<![\p{L}\p{N}.,])(\d{1,4})(?: ([.,])|(\.) )(\d{2})(?![\p{L}\p{N}]|[.,]\d)/gu,
      (whole, units: string, _before, _after, decimals: string, at: number) =>
        closed(whole, units, decimals, at),
    )
    .replace(/(?<![\p{L}\p{N}])[\dOoIlS]{1,4}[.,][\dOoIlS]{2}(?![\p{L}\p{N}])/gu, (token) =>
      /\d/.test(token) && /[OoIlS]/.test(token) ? digits(token) : token,
    );
  return { text: readable, closedUp };
}

export interface FoundAmount extends Found<number> {
  /** The currency written next to it, as found ("€", "EUR", "Rs"). */
  currency?: string;
}

/**
 * Every amount in the text, skipping numbers that are part of a date, a percentage, or a
 * code made of letters and digits.
 */
export function findAmounts(
  text: string,
  mark: DecimalMark | undefined = decimalMarkOf(text),
  dates = findDates(text),
): FoundAmount[] {
  const found: FoundAmount[] = [];
  const { text: readable, closedUp } = readableDigits(text);
  for (const match of readable.matchAll(amountPattern)) {
    // A figure OCR spaced out stands where all of it was written ("4. 00").
    const spaced = closedUp.find((span) => match.index >= span.start && match.index < span.end);
    const start = spaced?.start ?? match.index;
    const end = spaced?.end ?? match.index + match[0].length;
    if (dates.some((date) => start < date.end && end > date.start)) continue;
    const following = text.slice(end, end + 3);
    if (/^\s?%/.test(following)) continue;
    // Parts of codes and ranges: "D-4", "56/18", "3/64", "B01"; but a currency written
    // against the figure is no code ("RM7.00", "EUR12", "Rs.1939").
    const previous = readable[match.index - 1] ?? '';
    const attached = /\p{L}/u.test(previous) && isCurrencyPrefix(readable, match.index);
    if ((/[\p{L}/_#]/u.test(previous) && !attached) || /^[/_]/.test(following)) continue;
    if (previous === '-' && /[\p{L}\p{N}]/u.test(readable[match.index - 2] ?? '')) continue;
    const value = parseAmount(match[0], mark);
    if (value === undefined) continue;
    const amount: FoundAmount = { start, end, value };
    const currency = currencyNear(text, start, end);
    if (currency) amount.currency = currency;
    found.push(amount);
  }
  return found;
}

// ---------------------------------------------------------------------------------------
// Currencies

/** ISO 4217 codes that appear on invoices; words that look like codes (ALL, TOP) are left out. */
export const currencyCodes = new Set([
  'EUR',
  'USD',
  'GBP',
  'INR',
  'PLN',
  'CHF',
  'JPY',
  'CNY',
  'AUD',
  'CAD',
  'NZD',
  'SEK',
  'NOK',
  'DKK',
  'CZK',
  'HUF',
  'RON',
  'BGN',
  'RUB',
  'UAH',
  'TRY',
  'ZAR',
  'BRL',
  'MXN',
  'ARS',
  'CLP',
  'COP',
  'PEN',
  'SGD',
  'HKD',
  'TWD',
  'KRW',
  'THB',
  'IDR',
  'MYR',
  'PHP',
  'VND',
  'AED',
  'SAR',
  'QAR',
  'KWD',
  'ILS',
  'EGP',
  'NGN',
  'KES',
  'MAD',
  'PKR',
  'LKR',
  'BDT',
  'NPR',
  'ISK',
  'RSD',
]);

/**
 * How strongly a written currency says which one it is: a code says it outright; a symbol
 * of one currency (€, £, ₹, zł) nearly so; a name or the rupee's "Rs" is clear enough;
 * "$" and "¥" are shared by several currencies and count least.
 */
export const currencyStrength = { code: 4, symbol: 3, name: 2, ambiguous: 1 } as const;

interface CurrencySign {
  pattern: RegExp;
  code: string;
  strength: number;
}

const signs: CurrencySign[] = [
  { pattern: /US\$|U\.S\.\s?dollars?/giu, code: 'USD', strength: currencyStrength.symbol },
  { pattern: /(?:CA|C)\$/gu, code: 'CAD', strength: currencyStrength.symbol },
  { pattern: /(?:AU|A)\$/gu, code: 'AUD', strength: currencyStrength.symbol },
  { pattern: /NZ\$/gu, code: 'NZD', strength: currencyStrength.symbol },
  { pattern: /HK\$/gu, code: 'HKD', strength: currencyStrength.symbol },
  { pattern: /S\$/gu, code: 'SGD', strength: currencyStrength.symbol },
  { pattern: /R\$/gu, code: 'BRL', strength: currencyStrength.symbol },
  { pattern: /€/gu, code: 'EUR', strength: currencyStrength.symbol },
  { pattern: /£/gu, code: 'GBP', strength: currencyStrength.symbol },
  { pattern: /₹/gu, code: 'INR', strength: currencyStrength.symbol },
  { pattern: /(?<![\p{L}])zł(?![\p{L}])/giu, code: 'PLN', strength: currencyStrength.symbol },
  { pattern: /₽/gu, code: 'RUB', strength: currencyStrength.symbol },
  { pattern: /₺/gu, code: 'TRY', strength: currencyStrength.symbol },
  { pattern: /₩/gu, code: 'KRW', strength: currencyStrength.symbol },
  { pattern: /₪/gu, code: 'ILS', strength: currencyStrength.symbol },
  { pattern: /₫/gu, code: 'VND', strength: currencyStrength.symbol },
  { pattern: /₴/gu, code: 'UAH', strength: currencyStrength.symbol },
  { pattern: /₦/gu, code: 'NGN', strength: currencyStrength.symbol },
  { pattern: /(?<![\p{L}])Kč(?![\p{L}])/gu, code: 'CZK', strength: currencyStrength.symbol },
  { pattern: /(?<![\p{L}])euros?(?![\p{L}])/giu, code: 'EUR', strength: currencyStrength.name },
  {
    pattern: /(?<![\p{L}])(?:US\s)?dollars?(?![\p{L}])/giu,
    code: 'USD',
    strength: currencyStrength.name,
  },
  { pattern: /(?<![\p{L}])rupees?(?![\p{L}])/giu, code: 'INR', strength: currencyStrength.name },
  {
    pattern: /(?<![\p{L}])(?:złoty|zloty|złotych|złote)(?![\p{L}])/giu,
    code: 'PLN',
    strength: currencyStrength.name,
  },
  {
    pattern: /(?<![\p{L}])pounds?\s+sterling(?![\p{L}])/giu,
    code: 'GBP',
    strength: currencyStrength.name,
  },
  {
    pattern: /(?<![\p{L}])(?:Rs\.?|₨)(?=\s?[\d-])/gu,
    code: 'INR',
    strength: currencyStrength.name,
  },
  { pattern: /(?<![\p{L}])(?:CHF|Fr\.)(?=\s?\d)/gu, code: 'CHF', strength: currencyStrength.name },
  // The ringgit's "RM" before a figure (a receipt may print it a column's width away:
  // "TOTAL :RM      28.60") or heading a column of them ("Amount (RM)").
  {
    pattern: /(?<![\p{L}])RM(?=[ \t]*\d)|(?<=\()RM(?=\))/gu,
    code: 'MYR',
    strength: currencyStrength.name,
  },
  { pattern: /\$/gu, code: 'USD', strength: currencyStrength.ambiguous },
  { pattern: /¥|￥/gu, code: 'JPY', strength: currencyStrength.ambiguous },
];

const codePattern = /(?<![\p{L}\p{N}])([A-Z]{3})(?![\p{L}\p{N}])/gu;

export interface FoundCurrency extends Found<string> {
  /** The text as written ("€", "EUR", "US Dollars"). */
  written: string;
  strength: number;
}

/** Every currency sign, code or name in the text, with the ISO 4217 code it stands for. */
export function findCurrencies(text: string): FoundCurrency[] {
  const found: FoundCurrency[] = [];
  const add = (start: number, written: string, code: string, strength: number) => {
    const end = start + written.length;
    if (found.some((other) => start < other.end && end > other.start)) return;
    found.push({ start, end, value: code, written, strength });
  };
  for (const match of text.matchAll(codePattern)) {
    if (currencyCodes.has(match[1]!)) add(match.index, match[1]!, match[1]!, currencyStrength.code);
  }
  for (const sign of signs) {
    for (const match of text.matchAll(sign.pattern))
      add(match.index, match[0], sign.code, sign.strength);
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * Signs of the country a document comes from, and the currency each points to: the
 * country's name, the shape of its tax numbers, its telephone prefix, words of its tax
 * system. A sign shared by several currencies ("$", "¥") is read by them, and an OCR
 * misreading of a symbol ("¥" for "₹") is outweighed by them. Each kind of sign counts
 * once however often it appears.
 */
const countryCues: { pattern: RegExp; code: string }[] = [
  { pattern: /\bIndia\b|\bGSTIN\b|\b[CSI]GST\b|\+91[\s-]?\d/u, code: 'INR' },
  {
    pattern: /\bMaharashtra\b|\bKarnataka\b|\bMumbai\b|\bBangalore\b|\bNew Delhi\b/iu,
    code: 'INR',
  },
  { pattern: /\bMalaysia\b|\bSdn\.?\s?Bhd\b|\+60[\s-]?\d/iu, code: 'MYR' },
  { pattern: /\bKuala Lumpur\b|\bSelangor\b|\bJohor\b|\bPenang\b|\bJalan\b/iu, code: 'MYR' },
  { pattern: /\bSingapore\b|\+65[\s-]?\d/iu, code: 'SGD' },
  { pattern: /\bArgentina\b|\bC\.?U\.?I\.?T\b|\+54[\s-]?\d/iu, code: 'ARS' },
  { pattern: /\bMéxico\b|\bMexico\b|\bR\.?F\.?C\.?\b|\+52[\s-]?\d/u, code: 'MXN' },
  { pattern: /\bCanada\b|\bGST\/HST\b|\+1[\s-]?\(?[2-9]\d{2}\)?[\s-]\d{3}/iu, code: 'CAD' },
  { pattern: /\bAustralia\b|\bA\.?B\.?N\.?\s?\d/u, code: 'AUD' },
  { pattern: /\bUSA\b|\bUnited States\b|\b[A-Z]{2},? \d{5}(?:-\d{4})?\b/u, code: 'USD' },
  { pattern: /\bUnited Kingdom\b|\bGB ?\d{3} ?\d{4} ?\d{2}\b|\+44[\s-]?\d/u, code: 'GBP' },
  {
    pattern:
      /\bSchweiz\b|\bSuisse\b|\bSvizzera\b|\bSwitzerland\b|\bCHE-\d{3}\.\d{3}\.\d{3}|\+41[\s-]?\d/u,
    code: 'CHF',
  },
  { pattern: /\bČesk[áé]\b|\bCzech\b|\bDIČ\b|\+420[\s-]?\d/u, code: 'CZK' },
  { pattern: /\bPolska\b|\bNIP\b|\+48[\s-]?\d/u, code: 'PLN' },
  { pattern: /\bJapan\b|\b日本\b|\+81[\s-]?\d/u, code: 'JPY' },
  { pattern: /\bChina\b|\b中国\b|\+86[\s-]?\d/u, code: 'CNY' },
  // The euro area: country names, VAT numbers, telephone prefixes, tax words.
  {
    pattern:
      /\b(?:Deutschland|Germany|France|España|Spain|Italia|Italy|Portugal|Nederland|Netherlands|België|Belgique|Österreich|Austria|Ireland|Suomi|Finland)\b/u,
    code: 'EUR',
  },
  {
    pattern:
      /\b(?:DE ?\d{9}|FR ?\d{2} ?\d{3} ?\d{3} ?\d{3}|NL ?\d{9} ?B ?\d{2}|IT ?\d{11}|ES ?[A-Z0-9]\d{7}[A-Z0-9]|PT ?\d{9})\b/u,
    code: 'EUR',
  },
  { pattern: /\+(?:49|33|31|34|39|351|32|43|353|358)[\s-]?\d/u, code: 'EUR' },
  { pattern: /\bUSt\.?-?Id|\bMwSt\b|\bTVA\b|\bBTW\b|\bIVA\b/iu, code: 'EUR' },
];

/** How much each currency the country signs of a text point to is weighed. */
export function currencyCues(text: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const cue of countryCues)
    if (cue.pattern.test(text)) weights.set(cue.code, (weights.get(cue.code) ?? 0) + 1);
  return weights;
}

/** The currencies a sign shared by several stands for, first the one it means alone. */
export const sharedSigns: Record<string, string[]> = {
  USD: ['USD', 'CAD', 'AUD', 'ARS', 'MXN', 'SGD', 'NZD', 'HKD'],
  JPY: ['JPY', 'CNY', 'INR'],
};

function currencyNear(text: string, start: number, end: number): string | undefined {
  const left = text.slice(Math.max(0, start - 5), start);
  const right = text.slice(end, end + 5);
  const near = findCurrencies(`${left} ${right}`);
  return near[0]?.written;
}

// ---------------------------------------------------------------------------------------
// Other kinds

export function findPercentages(text: string): Found<number>[] {
  const found: Found<number>[] = [];
  for (const match of text.matchAll(/(?<![\p{L}\p{N}.,])(\d{1,3}(?:[.,]\d{1,3})?)\s?%/gu)) {
    found.push({
      start: match.index,
      end: match.index + match[0].length,
      value: Number(match[1]!.replace(',', '.')),
    });
  }
  return found;
}

export function findEmails(text: string): Found<string>[] {
  return [...text.matchAll(/(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?![\w-])/giu)].map(
    (match) => ({
      start: match.index,
      end: match.index + match[0].length,
      value: match[0],
    }),
  );
}

/** IBANs written compactly or in groups of four, kept only when their check digits agree. */
export function findIbans(text: string): Found<string>[] {
  const found: Found<string>[] = [];
  for (const match of text.matchAll(
    /(?<![A-Z0-9])([A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?)(?![A-Z0-9])/g,
  )) {
    // A group boundary may have swallowed the start of the next word; shorten until valid.
    let written = match[1]!;
    while (written.replace(/\s/g, '').length >= 15) {
      if (isValidIban(written)) {
        found.push({
          start: match.index,
          end: match.index + written.length,
          value: written.replace(/\s/g, ''),
        });
        break;
      }
      written = written.slice(0, -1).trimEnd();
    }
  }
  return found;
}

export function findUrls(text: string): Found<string>[] {
  return [
    ...text.matchAll(
      /(?<![\w@/.-])(?:https?:\/\/|www\.)[^\s<>"')\]]+|(?<![\w@/.-])[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|nl|de|fr|be|pl|in|uk|eu|io|es|it|ch|at)(?:\/[^\s<>"')\]]*)?(?![\w@-])/giu,
    ),
  ].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    value: match[0].replace(/[.,;:]+$/, ''),
  }));
}

export function findPhones(text: string): Found<string>[] {
  return [...text.matchAll(/(?<![\w+])(\+?\(?\d[\d ()./-]{6,}\d)(?![\w])/gu)]
    .filter((match) => match[1]!.replace(/\D/g, '').length >= 7)
    .map((match) => ({
      start: match.index,
      end: match.index + match[1]!.length,
      value: match[1]!.trim(),
    }));
}
