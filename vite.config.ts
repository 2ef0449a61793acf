/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import { playwright } from '@vitest/browser-playwright';
import { minifiedTemplates } from './src/tools/minify-templates.js';
import { serviceProxy } from './src/tools/service-proxy.js';
import { withoutSchemaDescriptions } from './src/tools/without-descriptions.js';
import { withoutPreloadHelper } from './src/tools/without-preload-helper.js';

/** Debian's Chromium; the README says how to install it. Playwright never downloads its own. */
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The AWS SDK warns once per process that releases after January 2027 will need Node 22; the
 * pinned release runs on Node 20, and tests print nothing.
 */
const serverTestEnv = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

export default defineConfig({
  // `npm run dev` and the browser tests reach the service's /api through this (same origin).
  // The built views' Lit templates without their indentation, and the contract's schemas
  // without the descriptions only the server's API documents read; and no preload helper
  // (see modulePreload below). All for the views' size budgets.
  plugins: [
    serviceProxy(),
    minifiedTemplates(),
    withoutSchemaDescriptions(),
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
    // src/tools/build.ts reads the manifest to measure what each view loads.
    manifest: true,
    // The hosted pages' CSP has no 'unsafe-inline' and no data: scripts.
    assetsInlineLimit: 0,
    // No preload helper (2 KB, 0.9 KB gzipped) in the first view: a later view's shared
    // chunks are then fetched when the view's own file has arrived, not beside it.
    modulePreload: false,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically in one file, and what two or more later
        // views share in another: the budgets are gzipped bytes, and one file compresses
        // better than the several Rolldown would split each into by who shares a module.
        codeSplitting: {
          groups: [
            { name: 'first-view', tags: ['$initial'] },
            { name: 'view-parts', minShareCount: 2 },
            // The app's own small later parts (the run's watcher, the contrast check, the
            // session notice, a partner's texts) together.
            {
              name: 'app-later',
              test: /src[\\/](elements[\\/]app[\\/](contrast|session-notice)|controllers[\\/]run-watcher-controller|client[\\/]run-events|locales[\\/]overrides)\.ts$/,
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
            'src/server/{http,runs,webhooks,graphql,files,cli,store,buckets,extractors,tokens}/**/*.test.ts',
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
          globalSetup: ['src/tools/browser-test-service.ts'],
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
