/**
 * The line-item table of the results, as a person with a keyboard and a person on a phone
 * meet it: one Tab stop however many rows it has (the ARIA grid pattern), and on a narrow
 * screen rows as cards, with nothing to pan sideways even when a value is wrong.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { completedRunWith, expectView } from './support/journey-steps.js';
import { createExtractor, createSession } from './support/service.js';

/** A completed run whose results hold `rows` line items; the page opens on them. */
async function resultsWithRows(page: Page, rows: number): Promise<void> {
  const session = await createSession(await createExtractor());
  await completedRunWith(session, 'Orlen.txt', {
    invoice_number: 'INV-400',
    total: 4000,
    line_items: Array.from({ length: rows }, (_, index) => ({
      description: `Item ${index + 1}`,
      amount: 10,
    })),
  });
  await page.goto(session.fullPageUrl);
  await expectView(page, 'results');
}

function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === element;
  });
}

test('the table of 400 rows is one Tab stop: from its first cell, Submit is a few Tabs away', async ({
  page,
}) => {
  await resultsWithRows(page, 400);
  const grid = page.getByRole('grid', { name: /Line items/ });
  await expect(grid).toHaveAttribute('aria-rowcount', '401');
  const first = grid.getByRole('gridcell').first();
  await first.click();
  await page.keyboard.press('Escape');
  await expect.poll(() => isFocused(first)).toBe(true);

  const submit = page.getByRole('button', { name: 'Submit', exact: true });
  let presses = 0;
  while (!(await isFocused(submit)) && presses < 50) {
    await page.keyboard.press('Tab');
    presses++;
  }
  expect(await isFocused(submit), 'Submit has focus').toBe(true);
  expect(presses).toBeLessThanOrEqual(10);
});

test('arrow keys, Home, End and Ctrl+End move between cells; Enter edits and Escape leaves', async ({
  page,
}) => {
  await resultsWithRows(page, 400);
  const grid = page.getByRole('grid', { name: /Line items/ });
  const cell = (row: number, column: number) =>
    grid.locator(`[role="gridcell"][data-row="${row}"][data-column="${column}"]`);
  await cell(0, 0).click();
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => isFocused(cell(1, 0))).toBe(true);
  await page.keyboard.press('End');
  await expect.poll(() => isFocused(cell(1, 2))).toBe(true);
  await page.keyboard.press('Home');
  await expect.poll(() => isFocused(cell(1, 0))).toBe(true);
  await page.keyboard.press('Control+End');
  await expect.poll(() => isFocused(cell(399, 2))).toBe(true);
  await page.keyboard.press('Control+Home');
  await expect.poll(() => isFocused(cell(0, 0))).toBe(true);

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const amount = page.getByRole('textbox', { name: 'Amount, row 1', exact: true });
  await expect.poll(() => isFocused(amount)).toBe(true);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('ten');
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  // Escape leaves the cell as it was before editing, with focus back on the cell.
  await page.keyboard.press('Escape');
  await expect.poll(() => isFocused(cell(0, 1))).toBe(true);
  await expect(amount).toHaveValue('10');
  await expect(amount).toHaveAttribute('aria-invalid', 'false');
});

test('at 375 px the rows are cards, every value shows, and nothing pans sideways with an invalid cell', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await resultsWithRows(page, 6);
  const amount = page.getByRole('textbox', { name: 'Amount, row 2' });
  await expect(amount).toBeVisible();
  await amount.fill('twelve');
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  // Every column of a row is on screen, not only the first.
  for (const name of ['Description, row 2', 'Amount, row 2']) {
    const box = await page.getByRole('textbox', { name }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  }
  // Nothing inside scrolls sideways either.
  const sideways = await page.locator('extractor-app').evaluate((app) => {
    const found: string[] = [];
    const visit = (root: ParentNode) => {
      for (const element of root.querySelectorAll('*')) {
        if (element.scrollWidth > element.clientWidth + 1) {
          const style = getComputedStyle(element);
          if (style.overflowX === 'auto' || style.overflowX === 'scroll')
            found.push(element.className || element.tagName);
        }
        if (element.shadowRoot) visit(element.shadowRoot);
      }
    };
    visit(app.shadowRoot!);
    return found;
  });
  expect(sideways).toEqual([]);
  // The card says what is wrong right under the value.
  await expect(page.getByText('Enter a number, such as 1,234.56.').first()).toBeVisible();
});
