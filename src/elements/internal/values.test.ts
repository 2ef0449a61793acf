import { describe, expect, it } from 'vitest';
import { formatNumber, parseNumber } from './values.js';

describe('parseNumber', () => {
  it('reads numbers as the locale writes them', () => {
    expect(parseNumber('1.234,56', 'de-DE')).toBe(1234.56);
    expect(parseNumber('1,234.56', 'en-US')).toBe(1234.56);
    expect(parseNumber('1 234,56', 'fr-FR')).toBe(1234.56);
    expect(parseNumber('1\u202f234,56', 'fr-FR')).toBe(1234.56);
    expect(parseNumber("1'234.56", 'de-CH')).toBe(1234.56);
    expect(parseNumber('12,34,567.5', 'en-IN')).toBe(1234567.5);
    expect(parseNumber('١٬٢٣٤٫٥', 'ar-EG')).toBe(1234.5);
    expect(parseNumber('−12,5', 'de-DE')).toBe(-12.5);
  });

  it('reads a lone separator before three digits as the locale does, and any other as a decimal point', () => {
    expect(parseNumber('1.234', 'de-DE')).toBe(1234);
    expect(parseNumber('1.234', 'en-US')).toBe(1.234);
    expect(parseNumber('1,234', 'en-US')).toBe(1234);
    expect(parseNumber('1,234', 'de-DE')).toBe(1.234);
    expect(parseNumber('7,25', 'en-US')).toBe(7.25);
    expect(parseNumber('7.25', 'de-DE')).toBe(7.25);
    expect(parseNumber('1.234.567', 'de-DE')).toBe(1234567);
  });

  it('refuses what is not a number', () => {
    for (const text of ['abc', '12.34.5', '1,2,3', '1.234,5,6', '', '-', '1e3', '12 apples'])
      expect(parseNumber(text, 'en-US'), text).toBeNaN();
  });
});

describe('formatNumber', () => {
  it('shows the locale’s decimal separator, without grouping', () => {
    expect(formatNumber(1234.56, 'de-DE')).toBe('1234,56');
    expect(formatNumber(1234.56, 'en-US')).toBe('1234.56');
    expect(parseNumber(formatNumber(0.1 + 0.2, 'de-DE'), 'de-DE')).toBe(0.1 + 0.2);
  });
});
