/** A file written where a test keeps its files, described as the engine sees a bucket's file. */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceFile } from '../types.js';

export async function storeSourceFile(
  dir: string,
  name: string,
  mediaType: string,
  content: string | Uint8Array,
): Promise<SourceFile> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  const path = join(dir, name);
  await writeFile(path, bytes);
  return {
    id: `id-${name}`,
    name,
    path,
    mediaType,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}
