/**
 * A Vite plugin that takes Vite's preload helper out of the hosted page's build. Vite wraps
 * every `import()` of a page in `__vitePreload(() => import(…), deps)`, to fetch the CSS and
 * the chunks the imported one needs beside it. With `modulePreload: false` and no CSS of its
 * own in any later chunk (the views' styles are in their scripts) every `deps` is empty, and
 * the helper (0.9 KB gzipped, in the first view) would only call the function it is given;
 * a failed import rejects just the same without it. Each call becomes that call.
 *
 * It fails the build when a call is not of the form it knows, or when a later chunk has
 * CSS after all (the helper would then be needed).
 */
import type { Plugin } from 'vite';
import { closingAt } from './closing-bracket.js';

const helper = '__vitePreload(';
const depsMarker = /^,\s*__VITE_PRELOAD__\s*\)/;

/** The chunk's code with each `__vitePreload(load, __VITE_PRELOAD__)` as `(load)()`. */
export function withoutPreloadCalls(code: string): string {
  let out = '';
  let copied = 0;
  for (let at = code.indexOf(helper); at >= 0; at = code.indexOf(helper, copied)) {
    const start = at + helper.length;
    const end = closingAt(code, start, true);
    const marker = depsMarker.exec(code.slice(end));
    if (!marker) throw new Error(`An unexpected __vitePreload call: ${code.slice(at, end + 40)}`);
    out += `${code.slice(copied, at)}(${code.slice(start, end)})()`;
    copied = end + marker[0].length;
  }
  return out + code.slice(copied);
}

export function withoutPreloadHelper(): Plugin {
  return {
    name: 'extractor-without-preload-helper',
    apply: 'build',
    enforce: 'post',
    renderChunk(code, chunk) {
      if (!chunk.isEntry && chunk.viteMetadata?.importedCss.size) {
        throw new Error(`${chunk.fileName} has CSS: Vite's preload helper would be needed.`);
      }
      if (!code.includes(helper)) return null;
      return { code: withoutPreloadCalls(code), map: null };
    },
  };
}
