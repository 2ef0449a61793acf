/**
 * Builds the partner pages' framework apps (react-app/, vue-app/) as a partner's own build
 * would, with Vite, into a temporary directory, and gives back each app's bundle: one ES
 * module with React or Vue inside. The element library is not in it: the partner page
 * loads it from the service's /sdk/extractor.mjs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export type PartnerFramework = 'react' | 'vue';

const entries: Record<PartnerFramework, string> = {
  react: join(here, 'react-app', 'main.tsx'),
  vue: join(here, 'vue-app', 'main.ts'),
};

export async function bundlePartnerApp(framework: PartnerFramework): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), `extractor-partner-${framework}-`));
  try {
    await build({
      configFile: false,
      root: here,
      logLevel: 'warn',
      publicDir: false,
      mode: 'production',
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      // Vue's full build compiles the template in the browser, where isCustomElement applies.
      resolve: framework === 'vue' ? { alias: { vue: 'vue/dist/vue.esm-bundler.js' } } : {},
      build: {
        outDir,
        target: 'es2022',
        minify: false,
        lib: { entry: entries[framework], formats: ['es'], fileName: () => 'app.js' },
        emptyOutDir: false,
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
    return readFileSync(join(outDir, 'app.js'), 'utf8');
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The partner's HTML: the library first, so the tag is defined before the app renders. */
export function partnerPageHtml(service: string, session: string, title: string): string {
  const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title>
<script type="module" src="${attribute(service)}/sdk/extractor.mjs"></script>
<script type="module" src="/app.js"></script></head>
<body><div id="root" data-service="${attribute(service)}" data-session="${attribute(session)}"></div></body>
</html>`;
}
