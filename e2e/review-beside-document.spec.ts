/**
 * Review beside the document (issue 13), on the real service with a real PDF invoice: the
 * page drawn beside the fields, the highlight of a focused value over the place the invoice
 * prints it (compared with the PDF text layer's own position of those words, from the words
 * route), a highlight that focuses its field, words picked on the page that fill a field as
 * the person's edit, a failing check that marks its field, and axe with the pane open.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoViolations } from './support/axe.js';
import { completedRunWith, expectView } from './support/journey-steps.js';
import { api, createSession, invoiceSchema, type Session } from './support/service.js';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Prepared {
  session: Session;
  sources: Record<string, { text: string; page: number; boxes?: (Box & { page: number })[] }>;
  words: (Box & { text: string })[];
}

const checkMessage = 'Totals under 1,000 are checked by hand.';

/** A completed run over the AWS invoice, its sources, and the words of its first page. */
async function prepare(): Promise<Prepared> {
  const { id } = await api<{ id: string }>('/api/saved_extractors', {
    body: {
      label: 'E2E review',
      jsonSchema: JSON.stringify(invoiceSchema),
      strategy: 'local',
      model: 'local',
      checks: [{ left: '/total', op: '>=', right: 1000, message: checkMessage }],
    },
  });
  const session = await createSession(id);
  const run = await completedRunWith(session, 'AmazonWebServices.pdf');
  const read = await api<{ resultMetadata: string; documents: { file: string }[] }>(
    `/api/extraction_runs/${run.id}`,
  );
  const [document] = JSON.parse(read.resultMetadata).documents as {
    sources: Prepared['sources'];
  }[];
  const { words } = await api<{ words: Prepared['words'] }>(
    `${read.documents[0]!.file}/pages/1/words`,
  );
  return { session, sources: document!.sources, words };
}

const pane = (page: Page) => page.locator('extractor-document-pane');

/** A box in fractions of the page, on the screen over the page's picture. */
async function onScreen(page: Page, box: Box) {
  const sheet = (await pane(page).locator('.picture').boundingBox())!;
  return {
    x: sheet.x + box.x * sheet.width,
    y: sheet.y + box.y * sheet.height,
    width: box.width * sheet.width,
    height: box.height * sheet.height,
  };
}

function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === element;
  });
}

async function openResults(page: Page, session: Session, query = '') {
  await page.goto(`${session.fullPageUrl}${query}`);
  await expectView(page, 'results');
  await expect(pane(page).locator('.picture')).toBeVisible();
}

test.describe('beside the document, 1440 pixels wide', () => {
  test.use({ viewport: { width: 1440, height: 1000 } });

  test('focusing Total highlights where the invoice prints it; a highlight focuses its field', async ({
    page,
  }) => {
    const { session, sources, words } = await prepare();
    const source = sources['/total']!;
    expect(source.boxes?.length).toBeGreaterThan(0);
    await openResults(page, session);

    // The pane sits to the right of the fields.
    const fields = (await page.locator('extractor-results-view .review-fields').boundingBox())!;
    expect((await pane(page).boundingBox())!.x).toBeGreaterThanOrEqual(fields.x + fields.width);

    await page.getByRole('textbox', { name: 'Total', exact: true }).focus();
    const highlight = pane(page).locator('.highlight.current').first();
    await expect(highlight).toBeVisible();
    await expect(highlight).toHaveAccessibleName('Total: found on page 1');
    // The text layer's own place of the total's text (from the words route): one of the
    // places the page prints it lies under the highlight, which is no bigger than a line.
    const printed = words.filter(
      (word) => word.text.replace(/[^\d.,]/g, '') === source.text.replace(/[^\d.,]/g, ''),
    );
    expect(printed.length, `"${source.text}" is on the page`).toBeGreaterThan(0);
    const shown = (await highlight.boundingBox())!;
    const under = [];
    for (const word of printed) {
      const place = await onScreen(page, word);
      const middle = { x: place.x + place.width / 2, y: place.y + place.height / 2 };
      if (
        middle.x > shown.x &&
        middle.x < shown.x + shown.width &&
        middle.y > shown.y &&
        middle.y < shown.y + shown.height
      )
        under.push(place);
    }
    expect(under).toHaveLength(1);
    expect(shown.height).toBeLessThan(under[0]!.height * 3);

    // A failed check marks the total with its message, and the count says so at the top.
    await expect(page.getByText(checkMessage)).toBeVisible();
    await expect(page.locator('extractor-results-view .review-count')).toContainText(
      '1 value needs review',
    );

    // Pointing at the invoice number's highlight marks its field; choosing it focuses it.
    const numberBox = pane(page).getByRole('button', { name: 'Invoice number: found on page 1' });
    await numberBox.hover();
    await expect(
      page.locator('extractor-results-view .field[data-pointer="/invoice_number"]'),
    ).toHaveClass(/pointed/);
    await numberBox.click();
    await expect
      .poll(() => isFocused(page.getByRole('textbox', { name: 'Invoice number', exact: true })))
      .toBe(true);
  });

  test('picking words on the page fills the focused field, as the person’s edit', async ({
    page,
  }) => {
    const { session, sources, words } = await prepare();
    // The page's words come late: the hint to pick them waits for them, and so does the drag.
    await page.route('**/pages/1/words*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await openResults(page, session);
    // Words no value was read from: no highlight lies over them.
    const covered = Object.values(sources).flatMap((source) => source.boxes ?? []);
    const free = words.filter(
      (word) =>
        /^[A-Za-z]{3,}$/.test(word.text) &&
        !covered.some(
          (box) =>
            word.x + word.width / 2 > box.x - 0.01 &&
            word.x + word.width / 2 < box.x + box.width + 0.01 &&
            word.y + word.height / 2 > box.y - 0.01 &&
            word.y + word.height / 2 < box.y + box.height + 0.01,
        ),
    );
    const index = words.indexOf(free[0]!);
    const [first, second] = [words[index]!, words[index + 1]!];

    const currency = page.getByRole('textbox', { name: 'Currency', exact: true });
    await currency.focus();
    await expect(
      pane(page).getByText('Select words on the page to fill “Currency”.'),
    ).toBeVisible();
    const from = await onScreen(page, first);
    const to = await onScreen(page, second);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect(currency).toHaveValue(`${first.text} ${second.text}`);
    const field = page.locator('extractor-results-view .field[data-pointer="/currency"]');
    await expect(field).toContainText('Edited by you, from page 1');
    // Saved to the service as the person's edit.
    await expect(page.getByText('All changes saved.')).toBeVisible();
    // A click picks one word.
    await currency.focus();
    await page.mouse.click(from.x + from.width / 2, from.y + from.height / 2);
    await expect(currency).toHaveValue(first.text);
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds nothing with the document open, in ${scheme}`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    const { session } = await prepare();
    await openResults(page, session, '&color-scheme=auto');
    await page.getByRole('textbox', { name: 'Total', exact: true }).focus();
    await expect(pane(page).locator('.highlight.current').first()).toBeVisible();
    await expectNoViolations(page, `results beside the document, ${scheme}`);
    // Narrow: the toggle shows the document instead of the fields.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('button', { name: 'Document', exact: true }).click();
    await expect(pane(page).locator('.picture')).toBeVisible();
    await expectNoViolations(page, `the document on a phone, ${scheme}`);
  });
}
