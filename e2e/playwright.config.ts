/**
 * End-to-end tests: the real service (started once by support/global-setup.ts, with a real
 * SQLite file under a fresh DATA_DIR) driven in Debian's Chromium. Playwright never
 * downloads a browser of its own.
 */
import { defineConfig, devices } from '@playwright/test';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : [['list']],
  outputDir: '../test-results/e2e',
  use: {
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
  },
});
