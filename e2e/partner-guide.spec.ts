/**
 * The partner guide's quick start (docs/partners/guide.md, which /developers shows),
 * followed as written: its shell blocks are read out of the guide and run by bash, in order,
 * against a service `npm start` starts afresh (a new DATA_DIR), and the pages it tells a
 * developer to open are opened in Chromium. Only the ports change (8787 and 3000 are the
 * guide's; the test takes free ones) and `npm install` is skipped (the tests run in an
 * installed tree). A step the guide gets wrong fails here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { labelDefaults } from '../src/contract/labels.js';
import { partnerGuideParts, partnerGuideSource } from '../src/tools/docs/partner-guide.js';
import { freePort, projectRoot } from '../src/server/testing/real-server.js';

const quickStart = partnerGuideParts(
  readFileSync(join(projectRoot, partnerGuideSource), 'utf8'),
).find((part) => part.id === 'quick-start')!;

/** The quick start's `sh` blocks, in order. */
const shellBlocks = [...quickStart.body.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(
  (match) => match[1]!,
);

/** Runs a shell command in its own process group, so it and its children can be stopped. */
function startShell(script: string, env: NodeJS.ProcessEnv): ChildProcess & { text(): string } {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  return Object.assign(child, { text: () => printed });
}

async function stopShell(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

async function waitForAnswer(url: string, shell: ReturnType<typeof startShell>): Promise<void> {
  await expect
    .poll(
      async () => {
        if (shell.exitCode !== null) throw new Error(`The step ended early:\n${shell.text()}`);
        return fetch(url).then(
          (answer) => answer.status,
          () => 0,
        );
      },
      { timeout: 90_000 },
    )
    .toBe(200);
}

test('the quick start works as the guide writes it, in each of the three ways', async ({
  page,
}) => {
  // It starts a service of its own with `npm start` (bundling the server first).
  test.setTimeout(240_000);
  const [servicePort, partnerPort] = [await freePort(), await freePort()];
  const withPorts = (text: string) =>
    text.replace(/\b8787\b/g, String(servicePort)).replace(/\b3000\b/g, String(partnerPort));

  const [start, ...rest] = shellBlocks;
  expect(start!.trim().split('\n')).toEqual(['npm install', 'npm start']);
  expect(existsSync(join(projectRoot, 'node_modules'))).toBe(true);
  expect(rest.at(-1)!.trim().split('\n').at(-1)).toBe('python3 -m http.server 3000');

  const dataDir = mkdtempSync(join(tmpdir(), 'extractor-quick-start-'));
  const env = {
    PORT: String(servicePort),
    DATA_DIR: dataDir,
    DIST_DIR: process.env.E2E_DIST_DIR!,
    LOG_LEVEL: 'warn',
  };
  const service = startShell('npm start', env);
  let steps: ReturnType<typeof startShell> | undefined;
  try {
    await waitForAnswer(`http://localhost:${servicePort}/healthz`, service);
    // Steps 2 to 5 in one shell, as one terminal: their variables carry over. The last
    // line serves the partner pages and keeps running.
    steps = startShell(withPorts(rest.join('\n')), env);
    await waitForAnswer(`http://localhost:${partnerPort}/iframe.html`, steps);

    const hostedPage = /^Hosted page: (\S+)$/m.exec(steps.text())?.[1];
    expect(hostedPage, steps.text()).toMatch(
      new RegExp(`^http://localhost:${servicePort}/x/[^?]+\\?session=xses_`),
    );
    const opened = [
      ...withPorts(quickStart.body).matchAll(/`(http:\/\/localhost:\d+\/\w+\.html)`/g),
    ].map((match) => match[1]!);
    expect(opened).toEqual([
      `http://localhost:${partnerPort}/iframe.html`,
      `http://localhost:${partnerPort}/element.html`,
    ]);

    const errors: string[] = [];
    page.on('console', (message) => {
      // The demo folder has no favicon.ico for the browser's own request: not ours.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        errors.push(message.text());
    });
    const introduction = { name: labelDefaults.introductionViewHeading };

    // A link to the hosted page.
    await page.goto(hostedPage!);
    await expect(page.getByRole('heading', introduction)).toBeVisible();
    // An iframe with /sdk/embed.js.
    await page.goto(opened[0]!);
    await expect(page.frameLocator('iframe').getByRole('heading', introduction)).toBeVisible();
    // The custom element.
    await page.goto(opened[1]!);
    await expect(page.getByRole('heading', introduction)).toBeVisible();
    // It works, not only shows: the session reaches the API from the partner's origin.
    await page.getByRole('button', { name: labelDefaults.introductionViewNextButtonLabel }).click();
    await expect(
      page.getByRole('heading', { name: labelDefaults.bucketViewHeading }),
    ).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    if (steps) await stopShell(steps);
    await stopShell(service);
    rmSync(join(projectRoot, 'partner-demo'), { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
});
