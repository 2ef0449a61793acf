/**
 * Lighthouse (12.8, its default mobile configuration with simulated throttling) on the
 * full page of a new embed session, `/x/{extractorId}?session=…`, which opens on the
 * introduction view, in Debian's Chromium. Prints the performance, accessibility and
 * best-practices scores against the goals of issue #4 and the titles of the audits that
 * did not pass.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { format } from './processes.js';
import { createDemoExtractor, createSession, startBenchService } from './service-api.js';

const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const goals = {
  performance: 0.95,
  accessibility: 1,
  'best-practices': 0.95,
} as const;

type Category = keyof typeof goals;

/**
 * The resources an audit names (which files block rendering, which go uncompressed), as
 * paths: the query is left out, since the page's own address carries the session token.
 */
function resourcesOf(details: unknown): string[] {
  const items = (details as { items?: unknown[] } | undefined)?.items ?? [];
  const paths = items.flatMap((item) => {
    const url = (item as { url?: unknown }).url;
    return typeof url === 'string' && URL.canParse(url) ? [new URL(url).pathname] : [];
  });
  return [...new Set(paths)].slice(0, 5);
}

export async function bench(): Promise<{ name: string; lines: string[] }> {
  const service = await startBenchService();
  try {
    const extractorId = await createDemoExtractor(service);
    const { fullPageUrl } = await createSession(service, extractorId);
    const chrome = await chromeLauncher.launch({
      chromePath: chromiumPath,
      chromeFlags: ['--headless=new', '--no-sandbox'],
    });
    try {
      const result = await lighthouse(fullPageUrl, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: Object.keys(goals),
      });
      if (!result) throw new Error('Lighthouse returned no result.');
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
      const lines: string[] = [];
      for (const category of Object.keys(goals) as Category[]) {
        const { score, auditRefs, title } = lhr.categories[category]!;
        const met = score !== null && score >= goals[category];
        lines.push(
          `${title.padEnd(15)} ${score === null ? ' n/a' : format.number(score, 2)}  (goal ${goals[category] === 1 ? '1.0' : `≥ ${goals[category]}`}: ${format.verdict(met)})`,
        );
        // Audits that count and did not pass; informative and not-applicable ones have no score.
        for (const reference of auditRefs) {
          const audit = lhr.audits[reference.id];
          if (!audit || audit.score === null || audit.score >= 0.9) continue;
          if (reference.weight === 0 && category !== 'performance') continue;
          const value = audit.displayValue ? ` (${audit.displayValue})` : '';
          lines.push(`  ✗ ${audit.title}${value}`);
          lines.push(...resourcesOf(audit.details).map((path) => `      ${path}`));
        }
      }
      return {
        name: `Lighthouse ${lhr.lighthouseVersion} on the full page (/x/{id}?session=…), ${lhr.configSettings.formFactor}`,
        lines,
      };
    } finally {
      chrome.kill();
    }
  } finally {
    await service.stop();
  }
}
