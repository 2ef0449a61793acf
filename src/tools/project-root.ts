/** The project's root directory, from which the tools find the sources and write `dist/`. */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
