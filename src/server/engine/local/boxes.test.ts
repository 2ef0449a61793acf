/**
 * Numbered form boxes (issue 25): a field that names its line or box ("Line 1: …",
 * `box_1_amount`) takes the value typed under that caption, in the caption's column, as
 * form-field values laid out at their widgets read.
 */
import { describe, expect, it } from 'vitest';
import type { TargetSchema } from '../../../contract/json-schema.js';
import { chunkPages } from '../chunks.js';
import type { ChunkExtraction } from '../types.js';
import { createLocalStrategy } from './local-strategy.js';

async function extract(schema: TargetSchema, text: string): Promise<ChunkExtraction> {
  const [chunk] = chunkPages([{ fileId: 'f1', fileName: 'form.pdf', page: 1, text }], 100_000);
  return createLocalStrategy().extractChunk(chunk!, {
    schema,
    outputInstructions: '',
    model: 'local',
    merged: {},
    signal: new AbortController().signal,
  });
}

const field = (title: string, description: string, extra: TargetSchema = {}): TargetSchema => ({
  type: ['string', 'null'],
  title,
  description,
  ...extra,
});

/** A filled form as its text layer and widget values give it: values under their captions. */
const form = [
  'Form EX-1             Certificate of Example Status (Rev. 2024)',
  ' Part I      Identification (see instructions)',
  '   1     Name of the person who is the holder                     2   Country of citizenship',
  ' Dana Q Example                                                     Examplia',
  '   3     Residence address (street, apt. or suite no.)',
  ' 12 Sample Street',
  '   5     Taxpayer identification number (see instructions)          6   Foreign number',
  '          98-765-4321',
  '   8     Date of birth (MM-DD-YYYY)',
  '          07-04-1981',
].join('\n');

describe('numbered form boxes', () => {
  it('reads each value under the caption of the box its field names', async () => {
    const { data, sources } = await extract(
      {
        type: 'object',
        properties: {
          holder: field('Holder', 'Line 1: name of the person who is the holder.'),
          citizenship: field('Citizenship', 'Line 2.'),
          street: field('Street', 'Line 3: street of the residence address.'),
          city: field('City', 'Line 3: city of the residence address.'),
          tin: field('TIN', 'Line 5: taxpayer identification number as printed.'),
          foreign_tin: field('Foreign TIN', 'Line 6.'),
          birth: field('Born', 'Line 8.', { format: 'date' }),
        },
      },
      form,
    );
    expect(data).toEqual({
      holder: 'Dana Q Example',
      citizenship: 'Examplia',
      street: '12 Sample Street',
      tin: '98-765-4321',
      birth: '1981-07-04',
    });
    expect(sources['/holder']!.confidence).toBeGreaterThanOrEqual(0.6);
  });
});
