/**
 * The extraction view as a keyboard and screen reader user meets it: after Pause and
 * Cancel focus is on the run's new status (not dropped to the page), progress is told in
 * the person's words, and a run that stopped has a bar that stopped too.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { minChunkSize } from '../src/contract/resources.js';
import { expectView, startFromIntroduction, uploadFixture } from './support/journey-steps.js';
import { createExtractor, createSession } from './support/service.js';

/** The element with focus, through the shadow roots, as a test id of sorts. */
function focusedIs(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === element;
  });
}

/** Endless animations inside the extraction view: a sliding bar, a pulsing badge. */
function endlessAnimations(page: Page): Promise<string[]> {
  return page.locator('extractor-app').evaluate((app) => {
    const view = app.shadowRoot!.querySelector('extractor-extraction-view')!;
    return view
      .shadowRoot!.getAnimations()
      .filter(
        (animation) =>
          animation.playState === 'running' &&
          animation.effect?.getTiming().iterations === Infinity,
      )
      .map((animation) => (animation as CSSAnimation).animationName);
  });
}

test('after Pause and Cancel focus is on the new status, and the bar of a cancelled run is still', async ({
  page,
}) => {
  const session = await createSession(
    await createExtractor({ strategy: 'llm', model: 'stand-in-slow', chunkSize: minChunkSize }),
  );
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  await uploadFixture(page, 'coolblue2.pdf');
  await page.getByRole('button', { name: 'Begin extraction' }).click();
  await expectView(page, 'extraction');
  const progress = page.getByRole('progressbar', { name: 'Progress', exact: true });
  await expect(progress).toHaveAttribute('aria-valuetext', /^Finding your data: \d+% done\.$/);
  await expect(page.locator('extractor-app')).not.toContainText(/\bparts?\b/);

  // Pause's answer comes after the status the event stream brings, as it may on a busy day.
  await page.route('**/pause', async (route) => {
    const response = await route.fetch();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await route.fulfill({ response });
  });
  await page.getByRole('button', { name: 'Pause' }).focus();
  await page.keyboard.press('Enter');
  const status = page.getByRole('group', { name: 'Paused' });
  await expect(status).toBeVisible();
  await expect.poll(() => focusedIs(status)).toBe(true);
  await expect(status).toContainText(/Paused at \d+% done\./);

  // The status can come by the event stream before Pause's own answer: until that answer
  // the other commands are held (aria-disabled), as a person sees them.
  const cancel = page.getByRole('button', { name: 'Cancel' });
  await expect(cancel).toHaveAttribute('aria-disabled', 'false');
  await cancel.focus();
  await page.keyboard.press('Enter');
  const cancelled = page.getByRole('group', { name: 'Cancelled' });
  await expect(cancelled).toBeVisible();
  await expect.poll(() => focusedIs(cancelled)).toBe(true);
  await expect(progress).not.toHaveClass(/indeterminate/);
  expect(await endlessAnimations(page)).toEqual([]);
});
