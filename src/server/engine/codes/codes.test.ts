/**
 * Barcodes and machine-readable zones, read from pictures the tests make: a QR code and a
 * PDF417 written by zxing's writer, a passport's zone drawn in a monospace font. Each is
 * read as a run reads an image file (readDocuments), so what the rules get is what is
 * checked: the code's block in the page's text, its box, and the structured record.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TargetSchema } from '../../../contract/json-schema.js';
import { chunkPages } from '../chunks.js';
import { readDocuments } from '../documents.js';
import { boxesOfRange } from '../geometry.js';
import { createLocalStrategy } from '../local/local-strategy.js';
import { renderCodePage, renderPassportPage, td3Lines, writeCode } from '../testing/build-codes.js';
import { textContent } from '../testing/invoice-fixtures.js';
import { useSourceFolder } from '../testing/source-files.js';
import type { PageText } from '../types.js';
import { parseBoardingPass } from './boarding-pass.js';
import { parseZone } from './mrz.js';
import { parseEpcQr, parseSwissQrBill } from './payment-qr.js';

const folder = useSourceFolder('engine-codes-');

const epcText = [
  'BCD',
  '002',
  '1',
  'SCT',
  'BPOTBEB1',
  'Red Cross of Belgium',
  'BE72000000001616',
  'EUR12.3',
  'CHAR',
  '',
  'Urgency fund',
].join('\n');

/** A boarding pass of one leg, issued on day 325 of a year ending in 6 (IATA's example). */
const bcbpText = 'M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 111>60B1WW6325BAC 00';

const passport = {
  issuingState: 'NLD',
  surname: 'DE BRUIJN',
  givenNames: 'WILLEKE LISELOTTE',
  documentNumber: 'SPECI2014',
  nationality: 'NLD',
  birthDate: '650310',
  sex: 'F' as const,
  expiryDate: '340309',
};

/** The parts of a page's codes as `name: value`, for short assertions. */
const partsOf = (page: PageText, index = 0) =>
  Object.fromEntries(page.codes![index]!.parts.map((part) => [part.name, part.value]));

// Nothing may be downloaded at run time: zxing-wasm fetches its .wasm from a CDN unless
// it is handed the local one, and this file's first reading is the module's first load.
const fetchSpy = vi.fn(() => Promise.reject(new Error('no network in these tests')));
beforeAll(() => {
  vi.stubGlobal('fetch', fetchSpy);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('barcodes on a picture', () => {
  it('reads an EPC payment QR code into its parts, placed where the code is, without fetching anything', async () => {
    const qr = await writeCode(epcText, 'QRCode', 5);
    const png = await renderCodePage(
      1600,
      1200,
      [{ png: qr, x: 900, y: 500 }],
      ['Invoice 2024-118', 'Please pay by scanning the code'],
    );
    const file = await folder.store('payment.png', 'image/png', png);
    const [page] = await readDocuments([file], textContent, { cacheDir: folder.cacheDir });

    expect(fetchSpy).not.toHaveBeenCalled();
    expect(page!.text).toContain('Invoice 2024-118');
    expect(page!.text).toContain('[code: QR Code, SEPA credit transfer (EPC QR)]');
    expect(page!.text).toContain('\nIBAN: BE72000000001616\n');
    const code = page!.codes![0]!;
    expect(code).toMatchObject({ kind: 'QR Code', format: 'epc-qr', text: epcText });
    expect(partsOf(page!)).toEqual({
      beneficiaryName: 'Red Cross of Belgium',
      iban: 'BE72000000001616',
      bic: 'BPOTBEB1',
      amount: '12.30',
      currency: 'EUR',
      purpose: 'CHAR',
      remittanceInformation: 'Urgency fund',
    });
    // The code's box: 900..~1105 of 1600 across, 500..~705 of 1200 down.
    expect(code.box.x).toBeCloseTo(900 / 1600, 1);
    expect(code.box.y).toBeCloseTo(500 / 1200, 1);
    // A value read from the block is shown on the code.
    const at = page!.text.indexOf('BE72000000001616', code.start);
    const [box] = boxesOfRange(page!.boxes!, 1, at, at + 16);
    expect(box!.y).toBeCloseTo(code.box.y, 3);
    expect(box!.x).toBeGreaterThanOrEqual(code.box.x);
    expect(box!.x + box!.width).toBeLessThanOrEqual(code.box.x + code.box.width + 0.0002);
    // The block ends the page, [start, end) holds it.
    expect(page!.text.slice(code.start, code.end)).toMatch(/^\[code: QR Code[^]*Urgency fund$/);
  });

  it('reads a boarding pass PDF417 into its parts, which the local rules then find by label', async () => {
    const pdf417 = await writeCode(bcbpText, 'PDF417', 3);
    const png = await renderCodePage(
      1600,
      900,
      [{ png: pdf417, x: 200, y: 400 }],
      ['BOARDING PASS'],
    );
    const file = await folder.store('boarding.png', 'image/png', png);
    const pages = await readDocuments([file], textContent, { cacheDir: folder.cacheDir });
    expect(pages[0]!.codes![0]).toMatchObject({ kind: 'PDF417', format: 'iata-bcbp' });
    expect(partsOf(pages[0]!)).toMatchObject({
      passengerName: 'DESMARAIS/LUC',
      bookingReference: 'ABC123',
      from: 'YUL',
      to: 'FRA',
      flightNumber: 'AC 834',
      seat: '1A',
      sequenceNumber: '25',
    });

    const schema = {
      type: 'object',
      properties: {
        passenger_name: { type: 'string' },
        booking_reference: { type: 'string' },
        seat: { type: 'string' },
      },
    } as unknown as TargetSchema;
    const [chunk] = chunkPages(pages, 4000);
    const found = await createLocalStrategy().extractChunk(chunk!, {
      schema,
      outputInstructions: '',
      model: 'local',
      merged: {},
      signal: new AbortController().signal,
    });
    expect(found.data).toMatchObject({
      passenger_name: 'DESMARAIS/LUC',
      booking_reference: 'ABC123',
      seat: '1A',
    });
    // Its source is the code's place on the picture.
    expect(found.sources['/passenger_name']!.boxes![0]!.y).toBeCloseTo(
      pages[0]!.codes![0]!.box.y,
      3,
    );
  });
});

describe('machine-readable zones', () => {
  it('reads a passport zone whose check digits hold into verified, labelled parts', async () => {
    const png = await renderPassportPage(td3Lines(passport));
    const file = await folder.store('passport.png', 'image/png', png);
    const [page] = await readDocuments([file], textContent, { cacheDir: folder.cacheDir });
    const zone = page!.codes![0]!;
    expect(zone).toMatchObject({ kind: 'MRZ TD3', format: 'icao-9303', verified: true });
    expect(partsOf(page!)).toMatchObject({
      documentKind: 'passport',
      issuingState: 'NLD',
      surname: 'DE BRUIJN',
      givenNames: 'WILLEKE LISELOTTE',
      documentNumber: 'SPECI2014',
      nationality: 'NLD',
      birthDate: '1965-03-10',
      sex: 'F',
      expiryDate: '2034-03-09',
    });
    expect(page!.text).toContain('[code: machine-readable zone TD3, check digits valid]');
    expect(page!.text).toContain('\nSurname: DE BRUIJN\n');
    expect(page!.text).toContain('\nDate of birth: 1965-03-10\n');
    // The zone sits at the bottom of the page.
    expect(zone.box.y).toBeGreaterThan(0.75);
  });

  it('reads the zone of a short name, whose first line a first reading drops as mostly fillers', async () => {
    const short = { ...passport, surname: 'LI', givenNames: 'AN' };
    const png = await renderPassportPage(td3Lines(short));
    const file = await folder.store('passport-short.png', 'image/png', png);
    const [page] = await readDocuments([file], textContent, { cacheDir: folder.cacheDir });
    expect(page!.codes![0]).toMatchObject({ kind: 'MRZ TD3', verified: true });
    expect(partsOf(page!)).toMatchObject({
      surname: 'LI',
      givenNames: 'AN',
      birthDate: '1965-03-10',
    });
    expect(page!.codes![0]!.box.y).toBeGreaterThan(0.75);
  });

  it('flags a zone whose check digit fails and offers none of its parts as labelled values', async () => {
    const [first, second] = td3Lines(passport);
    // The document number's check digit (the 10th character) made wrong.
    const wrong = String((Number(second[9]) + 1) % 10);
    const png = await renderPassportPage([
      first,
      `${second.slice(0, 9)}${wrong}${second.slice(10)}`,
    ]);
    const file = await folder.store('passport-bad.png', 'image/png', png);
    const [page] = await readDocuments([file], textContent, { cacheDir: folder.cacheDir });
    const zone = page!.codes![0]!;
    expect(zone.verified).toBe(false);
    expect(zone.parts.find((part) => part.name === 'documentNumber')).toMatchObject({
      value: 'SPECI2014',
      valid: false,
    });
    expect(page!.text).toMatch(
      /\[code: machine-readable zone TD3, NOT VERIFIED: [^\]]*check digit/,
    );
    expect(page!.text).not.toContain('Surname:');
    expect(page!.text).not.toContain('Document number:');
  });
});

describe('public formats, parsed', () => {
  it('a Swiss QR-bill', () => {
    const lines = [
      'SPC',
      '0200',
      '1',
      'CH4431999123000889012',
      'S',
      'Robert Schneider AG',
      'Rue du Lac',
      '1268',
      '2501',
      'Biel',
      'CH',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '1949.75',
      'CHF',
      'S',
      'Pia-Maria Rutschmann-Schnyder',
      'Grosse Marktgasse',
      '28',
      '9400',
      'Rorschach',
      'CH',
      'QRR',
      '210000000003139471430009017',
      'Order of 15 June 2020',
      'EPD',
    ];
    expect(parseSwissQrBill(lines.join('\r\n'))!.parts).toEqual(
      expect.arrayContaining([
        { name: 'creditorName', label: 'Creditor name', value: 'Robert Schneider AG' },
        {
          name: 'creditorAddress',
          label: 'Creditor address',
          value: 'Rue du Lac 1268, 2501 Biel, CH',
        },
        { name: 'iban', label: 'IBAN', value: 'CH4431999123000889012' },
        { name: 'amount', label: 'Amount', value: '1949.75' },
        { name: 'currency', label: 'Currency', value: 'CHF' },
        { name: 'debtorName', label: 'Debtor name', value: 'Pia-Maria Rutschmann-Schnyder' },
        { name: 'reference', label: 'Reference', value: '210000000003139471430009017' },
        { name: 'message', label: 'Message', value: 'Order of 15 June 2020' },
      ]),
    );
  });

  it('an EPC code without an amount or a valid IBAN layout', () => {
    expect(parseEpcQr('BCD\n001\n1\nSCT\nBIC\nName\nnot an iban\n')).toBeUndefined();
    expect(parseEpcQr('hello')).toBeUndefined();
    const parts = parseEpcQr('BCD\n002\n1\nSCT\n\nName\nDE89 3704 0044 0532 0130 00')!.parts;
    expect(parts.map((part) => part.name)).toEqual(['beneficiaryName', 'iban']);
  });

  it('a boarding pass: the flight date from the day of the year and the year of issue', () => {
    const parsed = parseBoardingPass(bcbpText, new Date('2027-03-01T00:00:00Z'))!;
    const parts = Object.fromEntries(parsed.parts.map((part) => [part.name, part.value]));
    // Issued on day 325 of 2026 (the last year ending in 6), flying on day 326: 22 November.
    expect(parts).toMatchObject({ flightDate: '2026-11-22', flightDayOfYear: '326' });
    expect(parseBoardingPass('M1 too short')).toBeUndefined();
  });

  it('a zone whose lines are no layout is not a zone', () => {
    expect(parseZone(['P<NLD<<<<<<<<<<<<<<<<<<<<<<<<<<<<', 'short'])).toBeUndefined();
    const [first, second] = td3Lines(passport);
    // OCR lost a filler at a line's end: made up again.
    expect(parseZone([first.slice(0, 43), second])).toMatchObject({ verified: true });
  });
});
