/**
 * A Vite plugin that leaves @lit/localize's generated message ids out of the browser's
 * builds. `msg()` names a message by a hash of its English text when the call gives no
 * `id`; every call of ours gives one (the catalogue test, src/tools/localisation/messages.test.ts, fails
 * on a call without a literal id, since partners override texts by id), so the hash
 * function and its tables (0.3 KB gzipped, in the first view) would never run. In its
 * place a message without an id has none, and shows its English text.
 */
import type { Plugin } from 'vite';

const replacement = '\0extractor:no-generated-message-ids';

export function withoutGeneratedMessageIds(): Plugin {
  return {
    name: 'extractor-without-generated-message-ids',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (
        source === './id-generation.js' &&
        importer &&
        /[\\/]@lit[\\/]localize[\\/]/.test(importer)
      )
        return replacement;
      return null;
    },
    load(id) {
      return id === replacement ? "export const generateMsgId = () => '';" : null;
    },
  };
}
