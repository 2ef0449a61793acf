/**
 * axe-core over a page and the frames in it: no violations of any impact, and proof that
 * axe looked inside the elements' shadow roots (their contrast among what it checked).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectNoViolations(page: Page, what: string): Promise<void> {
  // Let transitions (a button's colour, a bar's width) finish so colours are read as shown;
  // endless animations (the indeterminate bar, a spinner) never do and do not matter here.
  // In every frame: a framed view fading in is read half transparent, its contrast unknown.
  for (const frame of page.frames()) {
    await frame.waitForFunction(() =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getTiming().iterations === Infinity,
        ),
    );
  }
  // axe reads open shadow roots: the views' own text must be among what it checked. A frame
  // still settling on a busy machine can leave their contrast undecided for one analysis, so
  // it is analysed again until it is decided; the violations are those of that analysis.
  let results = await new AxeBuilder({ page }).analyze();
  await expect
    .poll(
      async () => {
        const checked = results.passes.find((rule) => rule.id === 'color-contrast')?.nodes ?? [];
        if (checked.some((node) => JSON.stringify(node.target).includes('-view'))) return true;
        results = await new AxeBuilder({ page }).analyze();
        return false;
      },
      { message: `${what}: axe checked the contrast inside the views`, timeout: 15_000 },
    )
    .toBe(true);
  const found = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
  }));
  expect(found, what).toEqual([]);
}
