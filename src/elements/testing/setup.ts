/**
 * Setup of the browser tests. Lit's development build runs here, for its extra checks; its
 * one-time "Lit is in dev mode" notice is marked as said so the tests print nothing.
 */
const lit = globalThis as typeof globalThis & { litIssuedWarnings?: Set<string> };
lit.litIssuedWarnings ??= new Set();
lit.litIssuedWarnings.add('dev-mode');
