/**
 * The custom element library's source imported during server-side rendering. The built
 * dist/sdk/extractor.mjs is checked the same way in build.test.ts, which builds it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../project-root.js';
import { importOnServer } from './server-import.js';

describe('importing src/embed/extractor.ts on a server', () => {
  it('does not throw, touches no window or document, and registers no tag', async () => {
    const url = pathToFileURL(join(projectRoot, 'src/embed/extractor.ts')).href;
    const result = await importOnServer(url, 'tsx');
    expect(result.exports).toEqual(
      expect.arrayContaining(['ExtractorApp', 'defineAllExtractorElements']),
    );
    expect(result.window).toBe('undefined');
    expect(result.document).toBe('undefined');
    expect(result.registered).toEqual([]);
  });
});
