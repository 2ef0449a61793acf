/**
 * A build of the interface of our own making, for in-process tests of the routes that serve
 * it: the routes are under test there, not the bundler (src/tools/build/build.test.ts tests that).
 * Without it the tests would depend on whether someone ran `npm run build` in the checkout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const standInIndexHtml =
  '<!doctype html><html lang="en"><head><script type="module" src="/assets/index-abc.js"></script></head><body></body></html>';

export function writeStandInBuild(directory: string): void {
  mkdirSync(join(directory, 'app', 'assets'), { recursive: true });
  mkdirSync(join(directory, 'sdk'), { recursive: true });
  writeFileSync(join(directory, 'app', 'index.html'), standInIndexHtml);
  writeFileSync(join(directory, 'app', 'assets', 'index-abc.js'), 'export {};');
  writeFileSync(join(directory, 'app', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(directory, 'sdk', 'extractor.mjs'), 'export {};');
  writeFileSync(join(directory, 'sdk', 'extractor.js'), 'void 0;');
  writeFileSync(join(directory, 'sdk', 'embed.js'), 'var ExtractorEmbed={};');
}
