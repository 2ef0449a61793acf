/**
 * What a code states fills the fields it answers (issue 25): the `Label: value` lines of a
 * verified machine-readable zone's or a barcode's block win over what OCR read of the
 * printed page, with a high confidence; names are taken as the page prints them.
 */
import { describe, expect, it } from 'vitest';
import type { TargetSchema } from '../../../contract/json-schema.js';
import { chunkPages } from '../chunks.js';
import { codeMarker } from '../markers.js';
import type { ChunkExtraction } from '../types.js';
import { createLocalStrategy } from './local-strategy.js';

async function extract(schema: TargetSchema, text: string): Promise<ChunkExtraction> {
  const [chunk] = chunkPages([{ fileId: 'f1', fileName: 'card.png', page: 1, text }], 100_000);
  return createLocalStrategy().extractChunk(chunk!, {
    schema,
    outputInstructions: '',
    model: 'local',
    merged: {},
    signal: new AbortController().signal,
  });
}

const text = (title: string, extra: TargetSchema = {}): TargetSchema => ({
  type: ['string', 'null'],
  title,
  ...extra,
});
const object = (properties: Record<string, TargetSchema>): TargetSchema => ({
  type: 'object',
  properties,
});

const identitySchema = object({
  document_number: text('Document number'),
  last_name: text('Surname'),
  first_names: text('Given names'),
  birth_date: text('Date of birth', { format: 'date' }),
  expiry_date: text('Date of expiry', { format: 'date' }),
  gender: text('Sex', { enum: ['M', 'F', 'X', null] }),
  nationality_code: text('Nationality', { description: 'Three-letter code' }),
});

/** A passport page as OCR reads it: its visual zone damaged, its zone verified. */
const passport = (zoneLabel: string, parts: string[]) =>
  [
    'PASSPORT   PASS   PASSEPORT',
    'Surname  MÜLLER',
    'Given names  JÖRG ANTON',
    'Passport No.  C0I234S67',
    'Date of birth  12.08.1965',
    'Date of expiry  0l.07.2031',
    'Sex  H',
    '',
    codeMarker(zoneLabel),
    'P<D<<MUELLER<<JOERG<ANTON<<<<<<<<<<<<<<<<<<<',
    'C01234567<D<<6503105M3107015<<<<<<<<<<<<<<<<',
    ...parts,
  ].join('\n');

describe('values a code states', () => {
  it('fills an identity document from its verified machine-readable zone', async () => {
    const { data, sources } = await extract(
      identitySchema,
      passport('machine-readable zone TD3, check digits valid', [
        'Document kind: passport',
        'Surname: MUELLER',
        'Given names: JOERG ANTON',
        'Document number: C01234567',
        'Nationality: D',
        'Date of birth: 1965-03-10',
        'Sex: M',
        'Date of expiry: 2031-07-01',
      ]),
    );
    expect(data).toEqual({
      document_number: 'C01234567',
      // As printed, accents and all: the zone spells them out.
      last_name: 'MÜLLER',
      first_names: 'JÖRG ANTON',
      birth_date: '1965-03-10',
      expiry_date: '2031-07-01',
      gender: 'M',
      nationality_code: 'D',
    });
    for (const pointer of ['/document_number', '/birth_date', '/last_name', '/gender'])
      expect(sources[pointer]!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('reads the printed page when the zone is not verified', async () => {
    const { data } = await extract(
      identitySchema,
      passport('machine-readable zone TD3, NOT VERIFIED: Date of birth: invalid', []),
    );
    expect(data).toMatchObject({ birth_date: '1965-08-12', last_name: 'MÜLLER' });
  });

  it("fills a boarding pass from its barcode's parts, the name as printed", async () => {
    const pass = [
      'BOARDING PASS',
      'Passenger  Lukas Weber',
      'Flight  CB 1I87      Seat  I2F',
      '',
      codeMarker('Aztec, Boarding pass (IATA BCBP)'),
      'M1WEBER/LUKAS MR      EL8ZK2P FRALISCB 1187 276Y012F0043 100',
      'Passenger name: WEBER/LUKAS MR',
      'Booking reference: L8ZK2P',
      'From airport: FRA',
      'To airport: LIS',
      'Flight number: CB 1187',
      'Seat: 12F',
    ].join('\n');
    const { data, sources } = await extract(
      object({
        passenger_name: text('Passenger'),
        flight_number: text('Flight'),
        seat: text('Seat'),
        from_airport: text('From (airport code)'),
        booking_reference: text('Booking reference'),
      }),
      pass,
    );
    expect(data).toEqual({
      passenger_name: 'Lukas Weber',
      flight_number: 'CB 1187',
      seat: '12F',
      from_airport: 'FRA',
      booking_reference: 'L8ZK2P',
    });
    expect(sources['/seat']!.confidence).toBeGreaterThanOrEqual(0.9);
  });
});
