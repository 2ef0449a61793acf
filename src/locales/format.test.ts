import { afterEach, describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatClock,
  formatDateTime,
  formatDate,
  formatDuration,
  formatEditableNumber,
  formatNumber,
  formatPercent,
  secondsOfDuration,
} from './format.js';
import { parseNumber } from './parse-number.js';
import { applyLocale } from './localization.js';

afterEach(() => applyLocale({ locale: 'en', tag: 'en' }));

describe('formats in the interface’s locale', () => {
  it('writes numbers, percentages and sizes as German does', async () => {
    await applyLocale({ locale: 'de', tag: 'de-DE' });
    expect(formatNumber(1234.56)).toBe('1.234,56');
    expect(formatEditableNumber(1234.56)).toBe('1234,56');
    expect(formatPercent(42)).toBe('42\u00a0%');
    expect(formatBytes(2.5 * 1024 * 1024)).toBe('2,5\u00a0MB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50\u00a0MB');
    expect(formatBytes(10)).toBe('10\u00a0Byte');
    expect(formatDateTime(new Date(2024, 4, 31, 14, 30))).toBe('31. Mai 2024 um 14:30');
    expect(formatDuration(64.25)).toMatch(/^1\s?Min\.?,? 4\s?Sek\.?$/);
    // A run quicker than half a second still reads as a time.
    expect(formatDuration(0.2)).toMatch(/^0\s?Sek\.?$/);
    expect(formatDate('2024-03-15')).toBe('15.03.2024');
    expect(formatClock(65)).toBe('1:05');
  });

  it('follows the region of the tag the language was chosen by', async () => {
    await applyLocale({ locale: 'de', tag: 'de-CH' });
    expect(formatNumber(1234.5)).toMatch(/^1[’']234\.5$/);
  });

  it('writes Arabic with its own digits and separators where the locale uses them', async () => {
    await applyLocale({ locale: 'ar', tag: 'ar-EG' });
    expect(formatNumber(1234.5)).toBe('١٬٢٣٤٫٥');
    expect(formatClock(65)).toBe('١:٠٥');
    expect(parseNumber(formatEditableNumber(1234.5))).toBe(1234.5);
  });

  it('reads the ISO durations runs report', () => {
    expect(secondsOfDuration('PT1M4.25S')).toBe(64.25);
    expect(secondsOfDuration('PT2H')).toBe(7200);
    expect(secondsOfDuration('PT')).toBeUndefined();
    expect(secondsOfDuration(null)).toBeUndefined();
  });
});

describe('parseNumber', () => {
  it('reads a number as the interface’s locale writes it, and unambiguous other ways', async () => {
    await applyLocale({ locale: 'de', tag: 'de-DE' });
    expect(parseNumber('1.234,56')).toBe(1234.56);
    expect(parseNumber('1.234')).toBe(1234);
    expect(parseNumber('1,234.56')).toBe(1234.56);
    await applyLocale({ locale: 'en', tag: 'en-US' });
    expect(parseNumber('1.234')).toBe(1.234);
    expect(parseNumber('1,234')).toBe(1234);
    expect(parseNumber('zwölf')).toBeNaN();
  });
});
