/**
 * `npx tsx src/tools/screenshots.ts [outDir]`: pictures of every view of the hosted full
 * page, at 375 px and 1280 px wide, light and dark, for a person to look at (issue #4 asks
 * for it before the interface is called done). It builds the interface, starts the real
 * service on a temporary DATA_DIR with the demo extractor, brings a session to each step
 * through the API, and photographs it with Debian's Chromium. Output: test-results/screenshots.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { chromium, type Browser } from 'playwright-core';
import { pino } from 'pino';
import type { EmbedSession, Extractor, Run } from '../contract/resources.js';
import { loadConfig } from '../server/config.js';
import { createService } from '../server/service.js';
import { build, projectRoot } from './build.js';

const adminToken = 'xpat_screenshots-admin-token-0123456789';
const fixtures = join(projectRoot, 'e2e/fixtures/invoices');
const outDir = resolve(process.argv[2] ?? join(projectRoot, 'test-results/screenshots'));
const widths = [375, 1280] as const;
const schemes = ['light', 'dark'] as const;

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

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const shots: [string, EmbedSession, string | undefined][] = [
      ['1-introduction', introduction, undefined],
      ['2-bucket', bucket, undefined],
      ['3-extraction', extraction, 'extraction'],
      ['4-results', results, 'results'],
    ];
    const problems: string[] = [];
    for (const [name, target, step] of shots) {
      for (const width of widths) {
        for (const scheme of schemes) {
          const context = await browser.newContext({
            viewport: { width, height: width < 600 ? 812 : 900 },
            colorScheme: scheme,
            deviceScaleFactor: 1,
          });
          const page = await context.newPage();
          // A CSP violation or a script error is a finding too: the pages must run clean.
          page.on('console', (message) => {
            if (message.type() === 'error' || message.type() === 'warning')
              problems.push(`${name} ${width} ${scheme}: ${message.text()}`);
          });
          page.on('pageerror', (error) =>
            problems.push(`${name} ${width} ${scheme}: ${error.message}`),
          );
          if (step) {
            await page.addInitScript(
              ([key, value]) => sessionStorage.setItem(key!, value!),
              [`extractor:step:${target.id}`, step],
            );
          }
          await page.goto(`${base}/x/${demo.id}?session=${target.token}`);
          await page.locator('extractor-app [part~="heading"]').first().waitFor();
          if (page.url().includes('session='))
            problems.push(`${name}: the session stayed in the address`);
          await page.waitForTimeout(300);
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
    server.close();
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
