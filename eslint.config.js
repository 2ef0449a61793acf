// ESLint (flat config): TypeScript's recommended rules everywhere, Lit's and the web
// components' rules for the browser code. Formatting is Prettier's job, not ESLint's.
import js from '@eslint/js';
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
