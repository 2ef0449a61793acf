import { describe, expect, it } from 'vitest';
import { filenameFromDisposition } from '../../client/client.js';
import { contentDisposition } from './content-disposition.js';

describe('contentDisposition', () => {
  it('names an ASCII file once, as every client reads it', () => {
    expect(contentDisposition('invoice-2e3f4a5b.csv')).toBe(
      'attachment; filename="invoice-2e3f4a5b.csv"',
    );
  });

  it('adds the exact name in RFC 8187 encoding when the ASCII name cannot say it', () => {
    expect(contentDisposition('Rechnung Müller (März).pdf')).toBe(
      `attachment; filename="Rechnung M_ller (M_rz).pdf"; filename*=UTF-8''Rechnung%20M%C3%BCller%20%28M%C3%A4rz%29.pdf`,
    );
    expect(contentDisposition('請求書-2e3f4a5b.csv', { asciiName: 'results-2e3f4a5b.csv' })).toBe(
      `attachment; filename="results-2e3f4a5b.csv"; filename*=UTF-8''${encodeURIComponent('請求書-2e3f4a5b.csv')}`,
    );
    // A quote or backslash would end or escape the quoted name.
    expect(contentDisposition('a"b\\c.txt')).toBe(
      `attachment; filename="a_b_c.txt"; filename*=UTF-8''a%22b%5Cc.txt`,
    );
    expect(contentDisposition("it's*.txt", { disposition: 'inline' })).toBe(
      `inline; filename="it's*.txt"`,
    );
  });

  it('writes half a surrogate pair as U+FFFD instead of failing', () => {
    expect(contentDisposition('a\ud83d.txt')).toBe(
      `attachment; filename="a_.txt"; filename*=UTF-8''a%EF%BF%BD.txt`,
    );
  });

  it('is read back to the same name by the service’s own client', () => {
    for (const name of ['plain.xml', 'Rechnung Müller (März).pdf', "l'été*.csv", '請求書.json'])
      expect(filenameFromDisposition(contentDisposition(name))).toBe(name);
  });
});
