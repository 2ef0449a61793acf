/**
 * Numbers, amounts, percentages, file sizes, dates and durations as the interface's locale
 * writes them (`formattingLocale()`: the tag the person's language was chosen by, so
 * `de-CH` groups thousands with ’). The parser of numbers people type is beside it, in
 * parse-number.ts, loaded with the results editor rather than before the introduction.
 */
import { formattingLocale } from './localization.js';
import { numberFormat } from './numbers.js';

export { formatNumber } from './numbers.js';

/** A number as a text box shows it for editing: the locale's decimal separator, no grouping. */
export function formatEditableNumber(value: number, locale?: string): string {
  return numberFormat({ useGrouping: false, maximumFractionDigits: 20 }, locale).format(value);
}

/** A whole percentage, 0 to 100 ("42 %" in German, "٤٢٪" in Arabic). */
export function formatPercent(percent: number): string {
  return numberFormat({ style: 'percent', maximumFractionDigits: 0 }).format(percent / 100);
}

const byteUnits = ['kilobyte', 'megabyte', 'gigabyte'] as const;

/**
 * A file size in the locale's words and digits: one decimal under 10 ("2,5 MB"), none when
 * it is nought or the size is larger ("12 MB"). Units of 1024, as the file pickers show.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024)
    return numberFormat({ style: 'unit', unit: 'byte', unitDisplay: 'short' })
      .format(bytes)
      .replace(/ /g, '\u00a0');
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < byteUnits.length - 1) {
    value /= 1024;
    unit++;
  }
  const rounded = value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  // A no-break space keeps "50 MB" together when the text wraps.
  return numberFormat({ style: 'unit', unit: byteUnits[unit]!, unitDisplay: 'short' })
    .format(rounded)
    .replace(/ /g, '\u00a0');
}

/** A moment as a date and a time ("31. Mai 2024 um 14:30"). */
export function formatDateTime(date: Date): string {
  return new Intl.DateTimeFormat(formattingLocale(), {
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(date);
}

/** `2024-05-01` as the person's locale writes it ("May 1, 2024", "1 mai 2024"); else as is. */
export function formatDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  // Midnight UTC, shown in UTC: a date has no time zone to move it to the day before.
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(match[3])) return value;
  return new Intl.DateTimeFormat(formattingLocale(), {
    dateStyle: 'medium',
    timeZone: 'UTC',
  }).format(date);
}

/** An ISO 8601 duration (`PT1M4.25S`, as runs report it) in seconds; undefined if unreadable. */
export function secondsOfDuration(duration: string | null | undefined): number | undefined {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(duration ?? '');
  if (!match || duration === 'PT') return undefined;
  const [, hours = '0', minutes = '0', seconds = '0'] = match;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/** A length of time in words, to the second ("1 Min., 4 Sek."). */
export function formatDuration(totalSeconds: number): string {
  const whole = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  const locale = formattingLocale();
  const DurationFormat = (Intl as { DurationFormat?: new (...args: unknown[]) => Intl.ListFormat })
    .DurationFormat;
  if (DurationFormat)
    return (
      // A unit of nought is left out unless asked for: a run of no time is "0 s", not "".
      (
        new DurationFormat(locale, {
          style: 'short',
          ...(whole === 0 ? { secondsDisplay: 'always' } : {}),
        }) as unknown as {
          format(duration: Record<string, number>): string;
        }
      ).format(hours ? { hours, minutes, seconds } : minutes ? { minutes, seconds } : { seconds })
    );
  // Without Intl.DurationFormat (Firefox before 136): each unit on its own, listed.
  const parts: string[] = [];
  const unit = (amount: number, name: string) =>
    parts.push(numberFormat({ style: 'unit', unit: name, unitDisplay: 'short' }).format(amount));
  if (hours) unit(hours, 'hour');
  if (hours || minutes) unit(minutes, 'minute');
  unit(seconds, 'second');
  return new Intl.ListFormat(locale, { type: 'unit', style: 'short' }).format(parts);
}

/** A stopwatch's time, minutes and seconds in the locale's digits ("1:05", "١:٠٥"). */
export function formatClock(totalSeconds: number): string {
  const whole = Math.max(0, Math.floor(totalSeconds));
  const minutes = numberFormat({ maximumFractionDigits: 0 }).format(Math.floor(whole / 60));
  const seconds = numberFormat({ minimumIntegerDigits: 2, useGrouping: false }).format(whole % 60);
  return `${minutes}:${seconds}`;
}
