/**
 * The interface in German and in Arabic, through introduction, upload, extraction, results
 * and submit, on the real service: no built-in English text is left on the page (its text
 * and accessible names are held against the English catalogue read from the source), the
 * numbers and dates are in the locale's form, Arabic runs right to left, and a partner's
 * own text for a built-in one shows.
 */
import { expect, test, type Page } from '@playwright/test';
import type { TemplateMap } from '@lit/localize';
import { templates as arabic } from '../src/locales/ar.js';
import { templates as german } from '../src/locales/de.js';
import { projectRoot } from '../src/tools/project-root.js';
import { catalogueText, scanInterfaceSource } from '../src/tools/localisation/messages.js';
import { fixturePath, recordOf, runsOfBucket } from './support/journey-steps.js';
import { startPartnerSite, type PartnerSite } from './support/partner-server.js';
import { createExtractor, createSession, invoiceSchema, serviceUrl } from './support/service.js';

const english = [...scanInterfaceSource(projectRoot).messages.values()];

/**
 * Each English message as a pattern of a whole text: its values may be anything. A message
 * a locale writes the same way (a product name, say) is not English left over, so it is
 * left out for that locale.
 */
function englishPatterns(catalogue: TemplateMap): { id: string; pattern: RegExp }[] {
  const same = new Set(
    Object.entries(catalogue)
      .filter(([id, template]) =>
        english.some((m) => m.id === id && m.text === catalogueText(template)),
      )
      .map(([id]) => id),
  );
  return english
    .filter((message) => !same.has(message.id))
    .map((message) => ({
      id: message.id,
      pattern: new RegExp(
        `^${message.text
          .split(/\$\{\d+\}/)
          // The spaces around a value stay: " to " is a word, not the "to" in "Wartość".
          .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'))
          .join('.+?')}$`,
        's',
      ),
    }));
}

/**
 * What the page shows and says: every rendered text node, through shadow roots, and the
 * accessible names and titles of its elements.
 */
function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const visit = (root: Node) => {
      for (const node of Array.from(root.childNodes)) {
        if (node.nodeType === Node.TEXT_NODE) {
          const parent = node.parentElement;
          const text = node.textContent?.trim();
          if (
            text &&
            parent &&
            parent.checkVisibility() &&
            !/^(STYLE|SCRIPT)$/.test(parent.tagName)
          )
            texts.push(text);
        } else if (node instanceof Element) {
          for (const name of ['aria-label', 'title', 'placeholder'])
            if (node.getAttribute(name)) texts.push(node.getAttribute(name)!.trim());
          if (node.shadowRoot) visit(node.shadowRoot);
          visit(node);
        }
      }
    };
    visit(document.body);
    return texts;
  });
}

/**
 * The extractor's own words, which are not the interface's: its schema's field titles and
 * the property names shown for fields without one ("Line items", "Description").
 */
const extractorWords = new Set(
  JSON.stringify(invoiceSchema)
    .match(/"(title|[a-z_]+)":/g)!
    .map((key) => key.slice(1, -2))
    .concat(JSON.stringify(invoiceSchema).match(/(?<="title":")[^"]+/g) ?? [])
    .map((word) => word.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase())),
);

/** The page's texts that are one of the English catalogue's messages. */
async function englishLeftOver(page: Page, catalogue: TemplateMap): Promise<string[]> {
  const patterns = englishPatterns(catalogue);
  const texts = (await pageTexts(page)).filter((text) => !extractorWords.has(text));
  return texts.flatMap((text) =>
    patterns.filter(({ pattern }) => pattern.test(text)).map(({ id }) => `${id}: ${text}`),
  );
}

function text(catalogue: TemplateMap, id: string): string {
  return catalogueText(catalogue[id]!);
}

let partner: PartnerSite;

test.beforeAll(async () => {
  partner = await startPartnerSite({ host: '127.0.0.2' });
});

test.afterAll(async () => {
  await partner.close();
});

test.describe('in German, as the browser asks', () => {
  test.use({ locale: 'de-DE' });

  test('a person goes from the introduction to submitted results without an English word', async ({
    page,
  }) => {
    // A whole journey with a look at every view's text: more than the default minute.
    test.slow();
    const session = await createSession(await createExtractor());
    await page.goto(session.fullPageUrl);

    const heading = (id: string) => page.getByRole('heading', { name: text(german, id) });
    await expect(heading('label.introduction-view-heading')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page.getByText('Schritt 1 von 4')).toBeVisible();
    expect(await englishLeftOver(page, german)).toEqual([]);

    await page
      .getByRole('button', { name: text(german, 'label.introduction-view-next-button-label') })
      .click();
    await expect(heading('label.bucket-view-heading')).toBeVisible();
    await page.locator('input[type="file"]').setInputFiles(fixturePath('Orlen.txt'));
    const file = page.getByRole('listitem').filter({ hasText: 'Orlen.txt' });
    await expect(file).toContainText('Hochgeladen');
    // File sizes as German writes them: a decimal comma and "kB" or "Byte".
    await expect(file).toContainText(/\d+(,\d)?\s(kB|Byte)/);
    await expect(page.getByRole('button', { name: 'Orlen.txt entfernen' })).toBeVisible();
    expect(await englishLeftOver(page, german)).toEqual([]);

    await page
      .getByRole('button', { name: text(german, 'label.bucket-view-begin-button-label') })
      .click();
    await expect(heading('label.extraction-view-heading')).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Fortschritt', exact: true })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Fertig' })).toBeVisible({ timeout: 45_000 });
    expect(await englishLeftOver(page, german)).toEqual([]);

    await page
      .getByRole('button', {
        name: text(german, 'label.extraction-view-continue-button-label'),
        exact: true,
      })
      .click();
    await expect(heading('label.results-view-heading')).toBeVisible();
    const total = page.getByLabel('Total', { exact: true });
    await total.fill('1.234,56');
    await expect(page.getByText('Alle Änderungen gespeichert.')).toBeVisible();
    await expect
      .poll(async () => recordOf((await runsOfBucket(session.bucket))[0]).total)
      .toBe(1234.56);
    await total.fill('zwölf');
    await expect(
      page.getByText('Bitte geben Sie eine Zahl ein, zum Beispiel 1.234,56.'),
    ).toBeVisible();
    expect(await englishLeftOver(page, german)).toEqual([]);
    await total.fill('12,5');
    await expect(page.getByText('Alle Änderungen gespeichert.')).toBeVisible();

    await page
      .getByRole('button', {
        name: text(german, 'label.results-view-submit-button-label'),
        exact: true,
      })
      .click();
    await expect(page.getByText('Abgesendet. Vielen Dank.')).toBeVisible();
    // The date as German writes it: "am 24. November 2026 um 13:05".
    await expect(
      page.getByText(/am \d{1,2}\. \p{L}+ \d{4} um \d{1,2}:\d{2} übermittelt\./u),
    ).toBeVisible();
    expect(await englishLeftOver(page, german)).toEqual([]);
  });

  test('a file that cannot be read says why in German, not in the service’s English', async ({
    page,
  }) => {
    const session = await createSession(await createExtractor());
    await page.goto(session.fullPageUrl);
    await page
      .getByRole('button', { name: text(german, 'label.introduction-view-next-button-label') })
      .click();
    // Its first bytes say PDF, so the upload takes it; no reader can open the rest.
    await page.locator('input[type="file"]').setInputFiles({
      name: 'scan.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\nnot a PDF beyond its first line\n'),
    });
    await expect(page.getByRole('listitem').filter({ hasText: 'scan.pdf' })).toContainText(
      'Hochgeladen',
    );
    await page
      .getByRole('button', { name: text(german, 'label.bucket-view-begin-button-label') })
      .click();
    const document = page.locator('[part~="document"]').filter({ hasText: 'scan.pdf' });
    await expect(document).toContainText('Nicht lesbar', { timeout: 45_000 });
    await expect(document).toContainText('scan.pdf ist möglicherweise beschädigt.');
    // The service said why in English, with a code; the page shows the German words only.
    const [run] = await runsOfBucket(session.bucket);
    const [failed] = run!.documents;
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'damaged_file' });
    expect(failed!.error).toMatch(/^scan\.pdf could not be read as a PDF/);
    expect((await pageTexts(page)).filter((shown) => shown.includes(failed!.error!))).toEqual([]);
    expect(await englishLeftOver(page, german)).toEqual([]);
  });
});

test.describe('in Arabic, as the element is told', () => {
  // The browser asks for English: the element's attribute comes first.
  test.use({ locale: 'en-US' });

  test('the element speaks Arabic right to left, with the partner’s own words for a button', async ({
    page,
  }) => {
    test.slow();
    const session = await createSession(await createExtractor(), {
      allowedOrigins: [partner.origin],
    });
    const service = serviceUrl();
    const override = 'اختر فواتيرك';
    const host = partner.page(
      '/ar',
      `<!doctype html>
      <html lang="en">
        <meta charset="utf-8">
        <title>ACME</title>
        <script type="module" src="${service}/sdk/extractor.mjs"></script>
        <script type="module">
          const app = document.querySelector('extractor-app');
          app.strings = { 'bucket.choose': ${JSON.stringify(override)} };
        </script>
        <main><extractor-app base-url="${service}" session="${session.token}" locale="ar"></extractor-app></main>
      </html>`,
    );
    await page.goto(host);
    const app = page.locator('extractor-app');
    const heading = (id: string) => page.getByRole('heading', { name: text(arabic, id) });
    await expect(heading('label.introduction-view-heading')).toBeVisible();
    await expect(app).toHaveAttribute('dir', 'rtl');
    await expect(app).toHaveAttribute('lang', 'ar');
    // The partner's page keeps its own language; only the element speaks Arabic.
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const digits = (value: number) =>
      page.evaluate((number) => new Intl.NumberFormat('ar').format(number), value);
    await expect(page.getByText(`الخطوة ${await digits(1)} من ${await digits(4)}`)).toBeVisible();
    expect(await englishLeftOver(page, arabic)).toEqual([]);

    await page
      .getByRole('button', { name: text(arabic, 'label.introduction-view-next-button-label') })
      .click();
    await expect(heading('label.bucket-view-heading')).toBeVisible();
    await expect(page.getByRole('button', { name: override })).toBeVisible();
    await page
      .locator('extractor-app')
      .locator('input[type="file"]')
      .setInputFiles(fixturePath('Orlen.txt'));
    await expect(page.getByRole('listitem').filter({ hasText: 'Orlen.txt' })).toContainText(
      'تم الرفع',
    );
    expect(await englishLeftOver(page, arabic)).toEqual([]);

    await page
      .getByRole('button', { name: text(arabic, 'label.bucket-view-begin-button-label') })
      .click();
    await expect(heading('label.extraction-view-heading')).toBeVisible();
    await expect(
      page.getByRole('group', { name: text(arabic, 'run.status.completed') }),
    ).toBeVisible({
      timeout: 45_000,
    });
    expect(await englishLeftOver(page, arabic)).toEqual([]);

    await page
      .getByRole('button', {
        name: text(arabic, 'label.extraction-view-continue-button-label'),
        exact: true,
      })
      .click();
    await expect(heading('label.results-view-heading')).toBeVisible();
    expect(await englishLeftOver(page, arabic)).toEqual([]);
    await page
      .getByRole('button', {
        name: text(arabic, 'label.results-view-submit-button-label'),
        exact: true,
      })
      .click();
    await expect(page.getByText(text(arabic, 'results.submitted'))).toBeVisible();
    const today = await page.evaluate(() =>
      new Intl.DateTimeFormat('ar', { dateStyle: 'long' }).format(new Date()),
    );
    await expect(page.getByText(today, { exact: false })).toBeVisible();
    expect(await englishLeftOver(page, arabic)).toEqual([]);
  });
});
