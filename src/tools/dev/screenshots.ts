/**
 * `npx tsx src/tools/dev/screenshots.ts [outDir]`: pictures of every view of the hosted full
 * page, at 375 px and 1280 px wide, light and dark, for a person to look at (issue #4 asks
 * for it before the interface is called done). It builds the interface, starts the real
 * service on a temporary DATA_DIR with the demo extractor, brings a session to each step
 * through the API, and photographs it with Debian's Chromium. Output: test-results/screenshots.
 *
 * Besides each step as it first shows, the states issue #14 changed: a file the service
 * refused, a cancelled run, the results with values that need attention (a field and a table
 * cell); issue #11's run of several documents, one of which cannot be read (the list of
 * documents, the results' switcher, the failed document's panel); and the element and the
 * iFrame on a light partner page (served from 127.0.0.2) under a light and a dark system,
 * with default settings and with a light theme that follows the system; and the results as
 * a draft, submitted, with nothing found (and Submit asking about it), Start over asking
 * before it leaves edits, the full page's warning before its session ends, a scan being
 * read page by page, and issue #13's results beside the document.
 * `ONLY=4-results npx tsx src/tools/dev/screenshots.ts` takes only the pictures whose names
 * start so. The full page is opened with `color-scheme=auto`,
 * so the dark pictures are dark.
 * `LOCALES=de,ar` takes the full page's pictures in those languages instead (`?locale=`,
 * names ending `-de`, `-ar`), light only.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { chromium, type Browser, type Page } from 'playwright-core';
import { pino } from 'pino';
import type { EmbedSession, Extractor, Run } from '../../contract/resources.js';
import { loadConfig } from '../../server/config.js';
import { createService } from '../../server/service.js';
import { buildPdf, renderTextImage } from '../../server/engine/testing/build-documents.js';
import { build } from '../build/build.js';
import { projectRoot } from '../project-root.js';

const adminToken = 'xpat_screenshots-admin-token-0123456789';
const fixtures = join(projectRoot, 'e2e/fixtures/invoices');
const outDir = resolve(process.argv[2] ?? join(projectRoot, 'test-results/screenshots'));
/** `WIDTHS=375,1024,1440` takes the pictures at those widths instead. */
const widths = process.env.WIDTHS?.split(',').map(Number) ?? [375, 1280];
const locales = process.env.LOCALES?.split(',').filter(Boolean) ?? [];
const schemes = locales.length ? (['light'] as const) : (['light', 'dark'] as const);

async function main(): Promise<void> {
  await build();
  mkdirSync(outDir, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'extractor-screenshots-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    EXTRACTOR_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'silent',
    WORKER_POLL_MS: '50',
  });
  const service = await createService(config, { logger: pino({ level: 'silent' }) });
  const server = serve({ fetch: service.app.fetch, port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let browser: Browser | undefined;
  const partners: Server[] = [];
  try {
    const api = async <T>(
      method: string,
      path: string,
      body?: unknown,
      token = adminToken,
    ): Promise<T> => {
      const isForm = body instanceof FormData;
      const response = await fetch(base + path, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'application/json',
          ...(body === undefined || isForm ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      });
      if (!response.ok)
        throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    const [demo] = await api<Extractor[]>('GET', '/api/extractors');
    if (!demo) throw new Error('The demo extractor is missing.');
    const session = () =>
      api<EmbedSession>('POST', '/api/embed_sessions', {
        savedExtractor: `/api/extractors/${demo.id}`,
      });
    const upload = async (target: EmbedSession, ...names: string[]) => {
      for (const name of names) {
        const form = new FormData();
        form.append('file', new Blob([readFileSync(join(fixtures, name))]), name);
        await api('POST', `${target.bucket}/files`, form, target.token);
      }
    };
    const runOf = async (target: EmbedSession, until: (run: Run) => boolean) => {
      let run = await api<Run>(
        'POST',
        '/api/extraction_runs',
        { bucket: target.bucket, savedExtractor: target.savedExtractor },
        target.token,
      );
      for (let tries = 0; tries < 600 && !until(run); tries++) {
        await new Promise((done) => setTimeout(done, 50));
        run = await api<Run>('GET', `/api/extraction_runs/${run.id}`, undefined, target.token);
      }
      return run;
    };

    const introduction = await session();
    const bucket = await session();
    await upload(bucket, 'AmazonWebServices.pdf', 'FlipkartInvoice.png', 'Orlen.txt');
    const extraction = await session();
    await upload(extraction, 'coolblue1.pdf', 'coolblue2.pdf', 'saeco.pdf', 'oyo.pdf');
    const paused = await runOf(extraction, (run) => run.status !== 'queued');
    if (paused.status === 'running')
      await api('POST', `/api/extraction_runs/${paused.id}/pause`, undefined, extraction.token);
    const results = await session();
    await upload(results, 'coolblue1.pdf');
    await runOf(results, (run) => run.status === 'completed' || run.status === 'failed');
    const cancelled = await session();
    await upload(cancelled, 'coolblue2.pdf');
    const cancelling = await runOf(cancelled, () => true);
    await api('POST', `/api/extraction_runs/${cancelling.id}/cancel`, undefined, cancelled.token);
    // Issue 11: three invoices and a file that cannot be read, each its own document.
    const documents = await session();
    await upload(documents, 'coolblue1.pdf', 'AmazonWebServices.pdf', 'saeco.pdf');
    {
      const form = new FormData();
      form.append('file', new Blob(['%PDF-1.4\nnot a PDF beyond its first line']), 'scan.pdf');
      await api('POST', `${documents.bucket}/files`, form, documents.token);
    }
    await runOf(
      documents,
      (run) => run.status === 'partially_completed' || run.status === 'failed',
    );
    const review = await session();
    await upload(review, 'coolblue1.pdf');
    await runOf(review, (run) => run.status === 'completed' || run.status === 'failed');
    // Issue 14's states: submitted, nothing found, Start over over edits, a session ending.
    const submitted = await session();
    await upload(submitted, 'coolblue1.pdf');
    const toSubmit = await runOf(submitted, (run) => run.status === 'completed');
    await api('POST', `/api/extraction_runs/${toSubmit.id}/submit`, undefined, submitted.token);
    const nothing = await session();
    {
      const form = new FormData();
      form.append('file', new Blob(['Thank you for visiting.\n']), 'note.txt');
      await api('POST', `${nothing.bucket}/files`, form, nothing.token);
    }
    await runOf(nothing, (run) => run.status === 'completed' || run.status === 'failed');
    const edited = await session();
    await upload(edited, 'coolblue1.pdf');
    const toEdit = await runOf(edited, (run) => run.status === 'completed');
    const [editedDocument] = toEdit.documents;
    await api(
      'PUT',
      `/api/extraction_runs/${toEdit.id}/documents/${editedDocument!.file.split('/').pop()}/results`,
      {
        ...(JSON.parse(toEdit.data ?? '{}') as { documents: { data: object }[] }).documents[0]!
          .data,
        currency: 'EUR',
      },
      edited.token,
    );
    // Issue 14: a scan of four pages read by OCR, photographed while it is, at its second
    // page: a run of its own for each picture, over a scan of its own (a scan read before
    // comes from the cache at once).
    let scans = 0;
    const scanPdf = async () => {
      const serial = ++scans;
      const pages = await Promise.all(
        [1, 2, 3, 4].map((page) =>
          renderTextImage([`Invoice SCAN-${serial}`, `Page ${page} of 4`], {
            width: 1275,
            height: 1650,
            fontSize: 32,
            format: 'jpeg',
          }),
        ),
      );
      return buildPdf(pages.map((jpeg) => ({ image: { jpeg, width: 1275, height: 1650 } })));
    };
    const reading = async () => {
      const target = await session();
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await scanPdf())]), 'scan.pdf');
      await api('POST', `${target.bucket}/files`, form, target.token);
      await runOf(target, (run) => (run.documents[0]?.pagesRead ?? 0) >= 1);
      return target;
    };
    // Minted when its picture is taken: it ends within the two minutes of warning.
    const ending = () =>
      api<EmbedSession>('POST', '/api/embed_sessions', {
        savedExtractor: `/api/extractors/${demo.id}`,
        ttlSeconds: 90,
      });
    // A real server on a loopback address of its own, as the service is: a page the browser
    // cannot place (a fulfilled route) may not reach a private address.
    const hostPages: Record<string, string> = {};
    const partner = createServer((request, response) => {
      const body = hostPages[new URL(request.url ?? '/', 'http://partner').pathname];
      if (body) response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
      else response.writeHead(204).end();
    });
    partner.listen(0, '127.0.0.2');
    if (!partner.listening) await once(partner, 'listening');
    partners.push(partner);
    const partnerOrigin = `http://127.0.0.2:${(partner.address() as AddressInfo).port}`;
    const hostSession = (theme?: Record<string, string>) =>
      api<EmbedSession>('POST', '/api/embed_sessions', {
        savedExtractor: `/api/extractors/${demo.id}`,
        allowedOrigins: [partnerOrigin],
        ...(theme ? { theme } : {}),
      });
    const lightTheme = {
      'color-background': '#ffffff',
      'color-surface': '#ffffff',
      'color-surface-subtle': '#f4f5f7',
      'color-accent': '#0a7d5a',
    };
    const [hostElement, hostFrame, hostThemed] = await Promise.all([
      hostSession(),
      hostSession(),
      hostSession(lightTheme),
    ]);
    // The service here listens on a port of its own choosing, not PUBLIC_BASE_URL's.
    const onService = (address: string) => {
      const url = new URL(address);
      return `${base}${url.pathname}${url.search}`;
    };
    /** A partner's light page, which declares no colour scheme of its own. */
    const partnerPage = (body: string) => `<!doctype html><html lang="en"><meta charset="utf-8">
      <title>ACME partner portal</title>
      <style>body{margin:0;padding:1.5rem;background:#fff;color:#111;font-family:Georgia,serif}
      #slot{max-width:720px}</style>
      <main><h1>ACME partner portal</h1>${body}</main></html>`;
    Object.assign(hostPages, {
      '/element': partnerPage(
        `<script type="module" src="${base}/sdk/extractor.mjs"></script>
        <extractor-app base-url="${base}" session="${hostElement.token}"></extractor-app>`,
      ),
      '/element-themed-auto': partnerPage(
        `<script type="module" src="${base}/sdk/extractor.mjs"></script>
        <extractor-app base-url="${base}" session="${hostThemed.token}" color-scheme="auto"></extractor-app>`,
      ),
      '/frame': partnerPage(
        `<div id="slot"></div><script src="${base}/sdk/embed.js"></script>
        <script>ExtractorEmbed.mount(document.getElementById('slot'), { url: ${JSON.stringify(onService(hostFrame.embeddedUrl))} });</script>`,
      ),
    });

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    /** What to open, and what to do there before the picture. */
    interface Shot {
      name: string;
      /** A session's full page (with the step to land on), or a partner page's path. */
      target:
        | { session: EmbedSession | (() => Promise<EmbedSession>); step?: string }
        | { partner: string };
      prepare?: (page: Page) => Promise<void>;
      /** Console errors the state brings by design (a refused upload's answer). */
      expected?: RegExp;
    }
    const view = (page: Page) => page.locator('extractor-app [part~="heading"]').first();
    const shots: Shot[] = [
      { name: '1-introduction', target: { session: introduction } },
      { name: '2-bucket', target: { session: bucket } },
      {
        name: '2-bucket-refused',
        target: { session: bucket },
        expected: /status of 415/,
        prepare: async (page) => {
          await page.locator('input[type="file"]').setInputFiles({
            name: 'scan.pdf',
            mimeType: 'application/pdf',
            buffer: Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]),
          });
          await page.locator('extractor-bucket-view .file-problem').first().waitFor();
        },
      },
      { name: '3-extraction', target: { session: extraction, step: 'extraction' } },
      { name: '3-extraction-cancelled', target: { session: cancelled, step: 'extraction' } },
      { name: '3-extraction-reading', target: { session: reading, step: 'extraction' } },
      { name: '3-extraction-documents', target: { session: documents, step: 'extraction' } },
      { name: '4-results', target: { session: results, step: 'results' } },
      { name: '4-results-documents', target: { session: documents, step: 'results' } },
      {
        // Issue 13: the page beside the fields (behind the Document toggle when narrow),
        // with the focused total's highlight.
        name: '4-results-beside-document',
        target: { session: results, step: 'results' },
        prepare: async (page) => {
          await page.getByRole('textbox', { name: 'Total', exact: true }).focus();
          // By its part, so the pictures in other languages find it too.
          const toggle = page
            .locator('extractor-results-view [part~="review-toggle-button"]')
            .nth(1);
          if (await toggle.isVisible()) await toggle.click();
          const pane = page.locator('extractor-document-pane');
          await pane.locator('.picture').waitFor();
          await pane.locator('.highlight.current').first().waitFor();
        },
      },
      {
        name: '4-results-documents-failed',
        target: { session: documents, step: 'results' },
        prepare: async (page) => {
          await page.getByRole('tab', { name: /^scan\.pdf/ }).click();
        },
      },
      {
        name: '4-results-review',
        target: { session: review, step: 'results' },
        prepare: async (page) => {
          await page.getByLabel('Currency', { exact: true }).fill('euro');
          // The cell and the filter by pointer and part, which every language shares.
          await page.locator('[data-pointer="/line_items/0/quantity"] input').fill('two');
          await page.locator('extractor-app [part~="filter-button"]').click();
          await page.getByLabel('Currency', { exact: true }).focus();
        },
      },
      {
        name: '4-results-draft',
        target: { session: review, step: 'results' },
        prepare: async (page) => {
          await page.getByLabel('Currency', { exact: true }).fill('euro');
          // Saved as a draft: the status's state by class, which every language shares.
          const status = page.locator('extractor-results-view .save-status');
          await status.and(page.locator('.pending, .saving')).waitFor();
          await status.and(page.locator('.saved')).waitFor();
        },
      },
      {
        name: '4-results-submitted',
        target: { session: submitted, step: 'results' },
      },
      { name: '4-results-nothing-found', target: { session: nothing, step: 'results' } },
      {
        name: '4-results-nothing-found-submit',
        target: { session: nothing, step: 'results' },
        prepare: async (page) => {
          await page.getByRole('button', { name: 'Submit', exact: true }).click();
        },
      },
      {
        name: '3-extraction-restart-warning',
        target: { session: edited, step: 'extraction' },
        prepare: async (page) => {
          await page.locator('extractor-app [part~="restart-button"]').click();
          // By its part, which every language shares.
          await page.locator('extractor-app [part~="restart-warning"]').waitFor();
        },
      },
      {
        name: '9-session-ending',
        target: { session: ending, step: 'introduction' },
        prepare: async (page) => {
          await page.locator('extractor-app [part~="session-notice"]').waitFor();
        },
      },
      { name: '6-host-element', target: { partner: '/element' } },
      { name: '7-host-frame', target: { partner: '/frame' } },
      { name: '8-host-element-themed-auto', target: { partner: '/element-themed-auto' } },
    ];
    const problems: string[] = [];
    for (const { name: shotName, target, prepare, expected } of shots.filter(
      (shot) =>
        (!process.env.ONLY || shot.name.startsWith(process.env.ONLY)) &&
        (!locales.length || 'session' in shot.target),
    )) {
      for (const [locale, width] of (locales.length ? locales : ['']).flatMap((each) =>
        widths.map((width) => [each, width] as const),
      )) {
        const name = locale ? `${shotName}-${locale}` : shotName;
        for (const scheme of schemes) {
          const context = await browser.newContext({
            viewport: { width, height: width < 600 ? 812 : 900 },
            colorScheme: scheme,
            deviceScaleFactor: 1,
          });
          const page = await context.newPage();
          // A CSP violation or a script error is a finding too: the pages must run clean.
          page.on('console', (message) => {
            if (
              (message.type() === 'error' || message.type() === 'warning') &&
              !expected?.test(message.text())
            )
              problems.push(`${name} ${width} ${scheme}: ${message.text()}`);
          });
          page.on('pageerror', (error) =>
            problems.push(`${name} ${width} ${scheme}: ${error.message}`),
          );
          if ('session' in target) {
            const { step } = target;
            const chosen =
              typeof target.session === 'function' ? await target.session() : target.session;
            if (step) {
              await page.addInitScript(
                ([key, value]) => sessionStorage.setItem(key!, value!),
                [`extractor:step:${chosen.id}`, step],
              );
            }
            const language = locale ? `&locale=${locale}` : '';
            await page.goto(
              `${base}/x/${demo.id}?session=${chosen.token}&color-scheme=auto${language}`,
            );
            await view(page).waitFor();
            if (page.url().includes('session='))
              problems.push(`${name}: the session stayed in the address`);
          } else {
            await page.goto(`${partnerOrigin}${target.partner}`);
            const inFrame = page.frameLocator('#slot iframe');
            // A page that does not show the element is a finding, photographed as it is.
            await (
              target.partner === '/frame'
                ? inFrame.locator('extractor-app [part~="heading"]').first()
                : view(page)
            )
              .waitFor({ timeout: 15_000 })
              .catch(() => problems.push(`${name} ${width} ${scheme}: the interface did not show`));
          }
          // The preparations find controls by their parts or the extractor's own labels, the
          // same in every language.
          await prepare?.(page);
          await page.waitForTimeout(400);
          await page.screenshot({
            path: join(outDir, `${name}-${width}-${scheme}.png`),
            fullPage: true,
          });
          await context.close();
        }
      }
    }
    // A reload of the full page finds the session in sessionStorage and the step again.
    {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${base}/x/${demo.id}?session=${results.token}`);
      await page.locator('extractor-app [part~="heading"]').first().waitFor();
      await page.reload();
      const heading = page.locator('extractor-app [part~="heading"]').first();
      await heading.waitFor();
      if ((await heading.textContent())?.trim() !== demo.resultsViewHeading)
        problems.push('reload: not back on the results');
      if ((await page.title()) !== demo.pageTitle)
        problems.push(`reload: the title is "${await page.title()}"`);
      await context.close();
    }
    // The iframe page on its own, as a partner's frame would show it.
    const context = await browser.newContext({ viewport: { width: 640, height: 700 } });
    const frame = await context.newPage();
    frame.on(
      'console',
      (message) => message.type() === 'error' && problems.push(`embed: ${message.text()}`),
    );
    await frame.goto(`${base}/embed/${demo.id}?session=${bucket.token}`);
    await frame.locator('extractor-app [part~="heading"]').first().waitFor();
    await frame.screenshot({ path: join(outDir, '5-embed-640-light.png'), fullPage: true });
    await context.close();
    process.stdout.write(`Screenshots in ${outDir}\n`);
    if (problems.length > 0) {
      process.stdout.write(
        `Console errors and warnings:\n${problems.map((line) => `  ${line}`).join('\n')}\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    await browser?.close();
    for (const partner of partners) partner.close();
    server.close();
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
