// ESLint (flat config): TypeScript's recommended rules everywhere, Lit's and the web
// components' rules for the browser code. Formatting is Prettier's job, not ESLint's.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'data/',
      '.scratch/',
      'custom-elements.json',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/elements/**', 'src/embed/**', 'src/controllers/**', 'src/client/**'],
    ...wc.configs['flat/recommended'],
  },
  {
    files: ['src/elements/**', 'src/embed/**', 'src/controllers/**', 'src/client/**'],
    ...lit.configs['flat/recommended'],
  },
  {
    // The server has no import cycle (type-only imports aside: they vanish at run time).
    files: ['src/server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
      // Sources import each other as `./x.js`, which TypeScript resolves to `./x.ts`.
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'no-restricted-syntax': [
        'error',
        {
          // Hono builds a new object of every variable for each read of `c.var`.
          selector: "MemberExpression[object.name='c'][property.name='var']",
          message: "Read a context variable with c.get('name'): c.var copies them all.",
        },
      ],
    },
  },
  {
    // Domain modules know nothing of HTTP: they throw the errors of src/server/errors.ts,
    // and the edge (http/, graphql/, app.ts) turns them into answers.
    files: [
      'src/server/{buckets,extractors,files,runs,sessions,tokens,store,webhooks,engine,formats}/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/*', '**/graphql/*', '**/app.js'],
              message:
                'A domain module knows nothing of HTTP: throw an error of errors.ts instead.',
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      // Stripping and rejecting control characters (file names, XML, CSV) is deliberate.
      'no-control-regex': 'off',
      // A callback may name a variable that is assigned once, after the callback is made.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
