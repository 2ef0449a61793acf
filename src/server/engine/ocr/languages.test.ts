/**
 * Pages in other languages and scripts, and pages lying turned: each read as the page
 * says, without being told. Images are drawn from text here: Latin and Arabic in DejaVu
 * Sans (Debian's fonts-dejavu, on every machine that runs the tests), Japanese in Noto
 * Sans JP from the `@expo-google-fonts/noto-sans-jp` development package, since Debian's
 * base fonts have no Japanese.
 */
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderTextImage } from '../testing/build-documents.js';
import type { TextBox } from '../types.js';
import { ocr } from './ocr.js';

GlobalFonts.registerFromPath(
  createRequire(import.meta.url).resolve(
    '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  ),
  'Noto Sans JP',
);

/** Lines of text drawn from the right edge when `rightToLeft`, as Arabic is set. */
function drawLines(lines: string[], font: string, rightToLeft = false): Promise<Buffer> {
  const canvas = createCanvas(1400, 80 * (lines.length + 1));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = `40px ${font}`;
  if (rightToLeft) {
    context.direction = 'rtl';
    context.textAlign = 'right';
  }
  lines.forEach((line, index) =>
    context.fillText(line, rightToLeft ? canvas.width - 40 : 40, 80 * (index + 1)),
  );
  return canvas.encode('png');
}

const german = [
  'Rechnungsnummer: RE-2024-0815',
  'Rechnungsdatum: 12. März 2024',
  'Gesamtbetrag: 1.250,00 EUR',
  'Zahlbar innerhalb von vierzehn Tagen ohne Abzug.',
  'Vielen Dank für Ihren Auftrag und Ihre Bestellung.',
  'Bitte geben Sie die Rechnungsnummer bei Zahlung an.',
];

const english = [
  'Invoice number: INV-2024-77',
  'Invoice date: 12 March 2024',
  'Amount due: 980 EUR',
  'Payment within fourteen days of the invoice date.',
  'Thank you for your order and your business.',
  'Please quote the invoice number with your payment.',
];

/** The box of the text `word` in a page read, or fails. */
function boxOf(page: { text: string; boxes: TextBox[] }, word: string): TextBox {
  const start = page.text.indexOf(word);
  expect(start, `${word} in ${page.text}`).toBeGreaterThanOrEqual(0);
  const box = page.boxes.find((candidate) => candidate.start <= start && candidate.end > start);
  expect(box).toBeDefined();
  return box!;
}

describe('OCR in the languages of the interface', () => {
  it('reads a German page with its own model, umlauts and all', async () => {
    const page = await ocr.recognize(await renderTextImage(german));
    expect(page.language).toBe('de');
    expect(page.text).toContain('Rechnungsdatum: 12. März 2024');
    expect(page.text).toContain('Vielen Dank für Ihren Auftrag');
  }, 120_000);

  it('reads a Japanese page, its characters joined as written', async () => {
    const page = await ocr.recognize(
      await drawLines(
        [
          '請求書番号: INV-2024-77',
          '請求日: 2024年3月12日',
          'お支払いは請求日から十四日以内にお願いします。',
          'ご注文いただきありがとうございます。',
        ],
        '"Noto Sans JP"',
      ),
    );
    expect(page.language).toBe('ja');
    expect(page.script).toBe('Japanese');
    expect(page.text).toContain('請求書番号');
    expect(page.text).toContain('2024年3月12日');
    expect(page.text).toContain('お支払いは請求日から');
  }, 120_000);

  it('reads an Arabic page, each line from right to left', async () => {
    const page = await ocr.recognize(
      await drawLines(
        ['تاريخ الفاتورة: 12 مارس 2024', 'المبلغ الإجمالي: 1250 درهم', 'شكرا لكم على طلبكم'],
        '"DejaVu Sans"',
        true,
      ),
    );
    expect(page.language).toBe('ar');
    expect(page.text).toContain('المبلغ الإجمالي');
    // The word printed rightmost comes first in the text, and its box is to the right.
    const first = boxOf(page, 'شكرا');
    const last = boxOf(page, 'طلبكم');
    expect(page.text.indexOf('شكرا')).toBeLessThan(page.text.indexOf('طلبكم'));
    expect(first.x).toBeGreaterThan(last.x);
  }, 120_000);

  it('reads in the languages the owner names, and only those', async () => {
    const image = await renderTextImage(german);
    const asEnglish = await ocr.recognize(image, { languages: ['en'] });
    expect(asEnglish.language).toBe('en');
    const asGerman = await ocr.recognize(image, { languages: ['fr', 'de'] });
    expect(asGerman.language).toBe('de');
    expect(asGerman.text).toContain('März');
  }, 120_000);
});

describe('OCR of pages lying turned', () => {
  it.each([90, 180, 270] as const)(
    'turns a page photographed turned %i° upright, its boxes on the page as shown',
    async (degrees) => {
      const upright = await renderTextImage(english);
      const uprightPage = await ocr.recognize(upright);
      const turned = await sharp(upright).rotate(degrees).png().toBuffer();
      const page = await ocr.recognize(turned);
      expect(page.orientation).toBe(360 - degrees);
      expect(page.text).toContain('Invoice number: INV-2024-77');
      expect(page.text).toContain('Amount due: 980 EUR');
      // The number's box on the turned image is its upright box turned the same way.
      const before = boxOf(uprightPage, 'INV-2024-77');
      const after = boxOf(page, 'INV-2024-77');
      const expected =
        degrees === 90
          ? {
              x: 1 - before.y - before.height,
              y: before.x,
              width: before.height,
              height: before.width,
            }
          : degrees === 180
            ? {
                x: 1 - before.x - before.width,
                y: 1 - before.y - before.height,
                width: before.width,
                height: before.height,
              }
            : {
                x: before.y,
                y: 1 - before.x - before.width,
                width: before.height,
                height: before.width,
              };
      for (const key of ['x', 'y', 'width', 'height'] as const)
        expect(Math.abs(after[key] - expected[key]), key).toBeLessThan(0.03);
    },
    180_000,
  );
});
