/**
 * The time to render a line-item table of 5,000 rows: the full page of a completed run
 * (the app opens it on the results view) in Debian's Chromium, from the start of the
 * navigation to the first frame painted with the table in it, showing 5,000 rows in its
 * row count. Beside it, in the same run and browser, the same page with 50 rows, and the
 * ratio of the two: the table is windowed, so 5,000 rows should cost little more than 50.
 * Each is the median of several page loads.
 */
import { chromium, type Browser } from 'playwright';
import { format } from './processes.js';
import {
  completedRunWithLineItems,
  createDemoExtractor,
  createSession,
  startBenchService,
  type BenchService,
} from './service-api.js';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const largeTable = 5000;
const smallTable = 50;
const loads = 5;
/** The goal: 5,000 rows within this factor of the time 50 take. */
const ratioGoal = 2;

/**
 * Installed before the page's own scripts: every animation frame, looks through the open
 * shadow roots for the line-item table, and notes the time of the first frame after it
 * appears with the expected row count (a frame callback runs before that frame's paint,
 * so the next one runs once it is painted). Kept as source text: tsx would wrap a function
 * passed to the browser in helpers that exist only in Node.
 */
function watchForTable(expectedRows: number): string {
  return `(() => {
    const findTable = (root) => {
      const table = root.querySelector('[part~="table"]');
      if (table) return table;
      for (const element of root.querySelectorAll('*')) {
        const found = element.shadowRoot ? findTable(element.shadowRoot) : null;
        if (found) return found;
      }
      return null;
    };
    let seen = false;
    const check = () => {
      if (seen) {
        window.tablePaintedAt = performance.now();
        return;
      }
      const table = findTable(document);
      seen = table?.getAttribute('aria-rowcount') === '${expectedRows + 1}' &&
        table.querySelector('tbody tr.row') !== null;
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })();`;
}

async function timeToTable(browser: Browser, url: string, rows: number): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: watchForTable(rows) });
    await page.goto(url);
    // A function, not a string: the page's Content-Security-Policy forbids eval.
    const handle = await page.waitForFunction(
      () => (window as unknown as { tablePaintedAt?: number }).tablePaintedAt,
      undefined,
      { timeout: 60_000 },
    );
    return (await handle.jsonValue()) as number;
  } finally {
    await context.close();
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function pageOfRun(
  service: BenchService,
  extractorId: string,
  rows: number,
): Promise<string> {
  const bucket = await completedRunWithLineItems(service, extractorId, rows);
  return (await createSession(service, extractorId, bucket)).fullPageUrl;
}

export async function bench(): Promise<{ name: string; lines: string[] }> {
  const service = await startBenchService();
  try {
    const extractorId = await createDemoExtractor(service);
    const urls = {
      small: await pageOfRun(service, extractorId, smallTable),
      large: await pageOfRun(service, extractorId, largeTable),
    };
    const browser = await chromium.launch({ executablePath: chromiumPath });
    try {
      // One load of each first, so that neither pays for the first start of the browser's
      // caches and code.
      await timeToTable(browser, urls.small, smallTable);
      await timeToTable(browser, urls.large, largeTable);
      const times = { small: [] as number[], large: [] as number[] };
      for (let load = 0; load < loads; load++) {
        times.small.push(await timeToTable(browser, urls.small, smallTable));
        times.large.push(await timeToTable(browser, urls.large, largeTable));
      }
      const small = median(times.small);
      const large = median(times.large);
      const ratio = large / small;
      return {
        name: `Results view, line-item table: navigation start to first paint with the table (median of ${loads})`,
        lines: [
          `${format.number(largeTable)} rows   ${format.number(large).padStart(5)} ms`,
          `${format.number(smallTable)} rows      ${format.number(small).padStart(5)} ms (baseline)`,
          `ratio        ${format.number(ratio, 2)} (goal ≤ ${ratioGoal}: ${format.verdict(ratio <= ratioGoal)})`,
        ],
      };
    } finally {
      await browser.close();
    }
  } finally {
    await service.stop();
  }
}
