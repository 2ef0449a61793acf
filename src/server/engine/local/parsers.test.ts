import { describe, expect, it } from 'vitest';
import {
  dateOrderOf,
  decimalMarkOf,
  findAmounts,
  findCurrencies,
  findDates,
  findEmails,
  findIbans,
  findPercentages,
  parseAmount,
} from './parsers.js';

const dates = (text: string) => findDates(text).map((found) => found.value);

describe('dates', () => {
  it('reads the common notations as ISO 8601', () => {
    expect(dates('18 april 2014')).toEqual(['2014-04-18']);
    expect(dates('Aug 3, 2014 and August 3 , 2014')).toEqual(['2014-08-03', '2014-08-03']);
    expect(dates('2022-09-08')).toEqual(['2022-09-08']);
    expect(dates('03.08.2014')).toEqual(['2014-08-03']);
    expect(
      dates(
        '3. März 2024 / 1er janvier 2020 / 02 Juillet 2015 / 29 maart 2014 / 12 de marzo de 2024',
      ),
    ).toEqual(['2024-03-03', '2020-01-01', '2015-07-02', '2014-03-29', '2024-03-12']);
    expect(dates('1 stycznia 2021')).toEqual(['2021-01-01']);
  });

  it('settles day or month first from the text itself', () => {
    expect(dateOrderOf('Invoice 20-10-2015, order 15-10-2015')).toBe('dmy');
    expect(dateOrderOf('Shipped 12/31/2023')).toBe('mdy');
    expect(findDates('Issued 03/08/2014, due 12/31/2014').map((found) => found.value)).toEqual([
      '2014-03-08',
      '2014-12-31',
    ]);
    expect(
      findDates('Factuur 8-9-2022, vervaldatum 22-9-2022').map((found) => found.value),
    ).toEqual(['2022-09-08', '2022-09-22']);
  });

  it('refuses dates that do not exist, and keeps offsets', () => {
    expect(dates('31.02.2024 and 2024-13-01')).toEqual([]);
    expect(findDates('Date: 2024-01-05')[0]).toEqual({ start: 6, end: 16, value: '2024-01-05' });
  });
});

describe('amounts', () => {
  it('reads either decimal mark and any thousands separator', () => {
    expect(parseAmount('1.234,56')).toBe(1234.56);
    expect(parseAmount('1,234.56')).toBe(1234.56);
    expect(parseAmount("1'234.50")).toBe(1234.5);
    expect(parseAmount('1\u00a0234,50')).toBe(1234.5);
    expect(parseAmount('717,97')).toBe(717.97);
    expect(parseAmount('4.11')).toBe(4.11);
    expect(parseAmount('-9,32')).toBe(-9.32);
    expect(parseAmount('2.321.000')).toBe(2321000);
  });

  it('lets the document’s own decimal mark settle "54,910"', () => {
    expect(decimalMarkOf('5,79 and 257,59')).toBe(',');
    expect(parseAmount('54,910', ',')).toBe(54.91);
    expect(parseAmount('54,910', '.')).toBe(54910);
  });

  it('finds amounts but not the numbers inside dates, percentages or codes', () => {
    const text =
      'Total € 1.234,50 on 03.08.2014, VAT 21%, code VM72516, ref D-4, 56/18, then $4.11';
    expect(findAmounts(text).map((found) => [found.value, found.currency])).toEqual([
      [1234.5, '€'],
      [4.11, '$'],
    ]);
  });
});

describe('figures as OCR writes them', () => {
  it('closes up a figure spaced around its mark, and reads look-alikes after a ringgit sign', () => {
    const text = 'Total RM Incl of GST   4. 00\nTOTAL RMS - OO\nCASH RMS. 00\nSub 41 .50';
    const found = findAmounts(text, '.');
    expect(found.map((amount) => amount.value)).toEqual([4, 5, 5, 41.5]);
    // Offsets stay true: each figure stands where all of it was written.
    expect(found.map((amount) => text.slice(amount.start, amount.end))).toEqual([
      '4. 00',
      'S - OO',
      'S. 00',
      '41 .50',
    ]);
  });

  it('leaves lists, ranges and words alone', () => {
    const text = 'pages 1, 20 and 30; 10-12 May; RMS SOLUTIONS; Rooms 5 - 10';
    const values = findAmounts(text, '.').map((amount) => amount.value);
    expect(values.filter((value) => !Number.isInteger(value))).toEqual([]);
  });
});

describe('currencies, emails, IBANs, percentages', () => {
  it('finds codes, symbols and names, with how clearly each says which currency', () => {
    const found = findCurrencies(
      'Total EUR 5 | £3 | Rs 40 | 5 zł | US Dollars | $2 | ¥ 9 | THE TAX',
    );
    expect(found.map((currency) => [currency.written, currency.value, currency.strength])).toEqual([
      ['EUR', 'EUR', 4],
      ['£', 'GBP', 3],
      ['Rs', 'INR', 2],
      ['zł', 'PLN', 3],
      ['US Dollars', 'USD', 2],
      ['$', 'USD', 1],
      ['¥', 'JPY', 1],
    ]);
  });

  it('keeps only IBANs whose check digits agree, written compactly or in groups', () => {
    expect(
      findIbans('IBAN NL50INGB0683251309 or NL58 RABO 0198 7232 02, not NL51INGB0683251309').map(
        (iban) => iban.value,
      ),
    ).toEqual(['NL50INGB0683251309', 'NL58RABO0198723202']);
  });

  it('finds emails and percentages', () => {
    expect(
      findEmails('Mail verkoop-nl@saeco.com or a.b+c@x.co.uk.').map((email) => email.value),
    ).toEqual(['verkoop-nl@saeco.com', 'a.b+c@x.co.uk']);
    expect(findPercentages('BTW 21 %, Tax 14.50%').map((percent) => percent.value)).toEqual([
      21, 14.5,
    ]);
  });
});
