/**
 * The partner guide as /developers reads it from the build: docs/partners/guide.md cut into
 * its parts when the interface is built (src/tools/docs/partner-guide.ts writes this file), so
 * the service reads no Markdown of the repository at run time.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the build writes the guide, from the build's directory (DIST_DIR). */
export const partnerGuideFile = 'developers/partner-guide.json';

export interface GuidePart {
  id: string;
  title: string;
  /** Markdown, under the part's own heading. */
  body: string;
}

/** The guide's parts, as the build wrote them, or none before a build. */
export async function readPartnerGuide(distDir: string): Promise<GuidePart[]> {
  try {
    return JSON.parse(await readFile(join(distDir, partnerGuideFile), 'utf8')) as GuidePart[];
  } catch {
    return []; // not built yet: the rest of the page still helps
  }
}
