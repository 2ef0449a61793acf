/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import { playwright } from '@vitest/browser-playwright';
import { minifiedTemplates } from './src/tools/build/plugins/minified-templates.js';
import { serviceProxy } from './src/tools/dev/service-proxy.js';
import { withoutSchemaDescriptions } from './src/tools/build/plugins/without-descriptions.js';
import { withoutPreloadHelper } from './src/tools/build/plugins/without-preload-helper.js';
import { withoutGeneratedMessageIds } from './src/tools/build/plugins/without-generated-ids.js';
import { shortPrivateProperties } from './src/tools/build/plugins/short-private-properties.js';

/**
 * Debian's Chromium; docs/development.md says how to install it. Playwright never downloads
 * its own.
 */
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The AWS SDK warns once per process that releases after January 2027 will need Node 22; the
 * pinned release runs on Node 20, and tests print nothing.
 */
const serverTestEnv = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

export default defineConfig({
  // `npm run dev` and the browser tests reach the service's /api through this (same origin).
  // The built views' Lit templates without comments and indentation, the contract's schemas
  // without the descriptions only the server's API documents read; @lit/localize without
  // the ids it would make for messages that have none (ours all have); no preload helper (see
  // modulePreload below). All for the views' size budgets (src/tools/build/build.ts).
  plugins: [
    serviceProxy(),
    minifiedTemplates(),
    shortPrivateProperties(),
    withoutSchemaDescriptions(),
    withoutGeneratedMessageIds(),
    withoutPreloadHelper(),
  ],
  // Known up front, so the browser tests' server never re-bundles (and reloads) mid-run.
  optimizeDeps: {
    include: [
      'lit',
      'lit/decorators.js',
      'lit/directives/keyed.js',
      'lit/directives/ref.js',
      'lit/directives/repeat.js',
      'lit/directive.js',
      '@lit/context',
      '@lit/task',
      '@lit/localize',
      'zod/mini',
    ],
  },
  build: {
    target: 'es2022',
    outDir: 'dist/app',
    // src/tools/build/build.ts reads the manifest to measure what each view loads.
    manifest: true,
    // The hosted pages' CSP has no 'unsafe-inline' and no data: scripts.
    assetsInlineLimit: 0,
    // No preload helper in the first view (2 KB, 0.65 KB gzipped): what loads later is one
    // file with nothing to fetch beside it. Vite still wraps each import() in the helper;
    // withoutPreloadHelper() unwraps them.
    modulePreload: false,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically in one file, and everything after it but
        // the catalogues in another (the three later views, their parts, the app's later
        // parts, the frame's bridge): the budgets are gzipped bytes, and one file compresses
        // better than the several Rolldown would split it into (by view and by who shares
        // a module) by some 3.5 KB. Each part of a catalogue stays a file of its own: one
        // locale's load.
        codeSplitting: {
          groups: [
            { name: 'first-view', tags: ['$initial'] },
            {
              name: 'later',
              test: (id) => !/src[\\/]locales[\\/](first-view|later)[\\/][a-z]{2}\.ts$/.test(id),
            },
          ],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          env: serverTestEnv,
          include: [
            'src/server/**/*.test.ts',
            'src/contract/**/*.test.ts',
            'src/tools/**/*.test.ts',
          ],
          // What only several processes on one PostgreSQL database can show.
          exclude: ['src/server/**/*.postgres.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The tests that go through the store, again on a real PostgreSQL server that the
        // global set-up starts (and installs when missing, under root): the same files,
        // the same assertions, the other dialect.
        extends: true,
        test: {
          name: 'server-postgres',
          environment: 'node',
          env: serverTestEnv,
          globalSetup: ['src/server/testing/postgres-global-setup.ts'],
          include: [
            'src/server/*.test.ts',
            'src/server/{http,runs,run-lifecycle,webhooks,graphql,files,cli,store,buckets,extractors,tokens}/**/*.test.ts',
            'src/server/**/*.postgres.test.ts',
          ],
          exclude: [
            // SQLite's own connection and caches.
            'src/server/store/sqlite-connection.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          globalSetup: ['src/tools/dev/browser-test-service.ts'],
          setupFiles: ['src/elements/testing/setup.ts'],
          testTimeout: 30_000,
          include: [
            'src/elements/**/*.test.ts',
            'src/controllers/**/*.test.ts',
            'src/client/**/*.test.ts',
            'src/embed/**/*.test.ts',
            'src/locales/**/*.test.ts',
          ],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                executablePath: chromium,
                args: [
                  '--no-sandbox',
                  '--disable-gpu',
                  '--disable-background-networking',
                  '--disable-component-update',
                  '--disable-sync',
                  '--no-first-run',
                ],
              },
            }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
    ],
  },
});
