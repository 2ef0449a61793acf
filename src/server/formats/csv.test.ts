import { describe, expect, it } from 'vitest';
import { readCsv } from '../testing/representations.js';
import { useTestService } from '../testing/test-service.js';
import { formatCsv, neutraliseCell, parseCsv, restoreCell } from './csv.js';
import { resultsToCsv } from '../runs/result-formats.js';

/** Values a spreadsheet would take for a formula, however they are dressed. */
const formulas = [
  '=HYPERLINK("https://evil.example","click")',
  '+1+1',
  '-2+3',
  '@SUM(A1)',
  '\tcmd',
  '\rcmd',
  ' =1+2',
  '   +cmd',
  '\u00a0@SUM(A1)',
  '\u3000=1+2',
  '\n=1+2',
  '＝1+2',
  '＋1+2',
  '－2+3',
  '＠SUM(A1)',
  ' ＝HYPERLINK("https://evil.example")',
];

/** Values that are no formula, some of them close. */
const plain = ['', 'total', 'a=b', '1+1', "'quoted", "''", "'=1+2", 'e-mail', '12 = 12'];

describe('CSV cells', () => {
  it('neutralises every formula-like cell, after leading blanks and in full-width forms', () => {
    for (const value of formulas)
      expect(neutraliseCell(value), JSON.stringify(value)).toBe(`'${value}`);
    expect(neutraliseCell('total')).toBe('total');
    expect(neutraliseCell('a=b')).toBe('a=b');
  });

  it('reads back exactly the value each cell was written from', () => {
    for (const value of [...formulas, ...plain]) {
      const [, [cell]] = parseCsv(formatCsv(['value', 'end'], [[value, '.']]))! as [
        string[],
        string[],
      ];
      expect(restoreCell(cell!), JSON.stringify(value)).toBe(value);
    }
  });

  it('neutralises them in results downloads too', () => {
    const data = { cells: formulas.map((value) => ({ value })) };
    const [header, ...records] = readCsv(
      resultsToCsv({
        documents: [
          { file: '/api/buckets/b/files/f', name: 'a.pdf', status: 'completed', data, error: null },
        ],
      }),
    );
    const column = header!.indexOf('cells.value');
    expect(records.map((record) => record[column])).toEqual(formulas.map((value) => `'${value}`));
  });
});

describe('the text/csv representation', () => {
  const service = useTestService();

  it('neutralises formula-like text however it is dressed', async () => {
    for (const description of ['  =1+2', '＝HYPERLINK("https://evil.example")']) {
      const created = (await (
        await service.json('POST', '/api/buckets', { description })
      ).json()) as { id: string };
      const response = await service.request(`/api/buckets/${created.id}`, {
        headers: { Accept: 'text/csv' },
      });
      const [header, record] = readCsv(await response.text());
      expect(record![header!.indexOf('description')]).toBe(`'${description}`);
    }
  });

  it('round-trips exactly: what it writes, read back as a body, is the same value', async () => {
    for (const label of ['=1+2', '＝1+2', "'quoted", "'=1+2", 'plain']) {
      const created = (await (
        await service.json('POST', '/api/extractors', {
          label,
          jsonSchema: '{"type":"object","properties":{"a":{"type":"string"}}}',
        })
      ).json()) as { id: string };
      let csv = await (
        await service.request(`/api/extractors/${created.id}`, { headers: { Accept: 'text/csv' } })
      ).text();
      // Twice through: a value that changed on the way would change again.
      for (let trip = 0; trip < 2; trip++) {
        const put = await service.request(`/api/extractors/${created.id}`, {
          method: 'PUT',
          headers: { 'Content-Type': 'text/csv', Accept: 'text/csv' },
          body: csv,
        });
        expect(put.status, await put.clone().text()).toBe(200);
        csv = await put.text();
      }
      const stored = (await (
        await service.json('GET', `/api/extractors/${created.id}`)
      ).json()) as {
        label: string;
      };
      expect(stored.label, JSON.stringify(label)).toBe(label);
    }
  });
});
