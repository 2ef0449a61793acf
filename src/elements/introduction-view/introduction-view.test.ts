import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { labelDefaults, resolveLabels } from '../../contract/labels.js';
import { createExtractor } from '../../client/testing/fixtures.js';
import { $, mountView, unmountAll } from '../testing/mount.js';

describe('<extractor-introduction-view>', () => {
  afterEach(unmountAll);

  it('shows the extractor’s heading, description and button label as text', async () => {
    const extractor = await createExtractor({
      introductionViewHeading: 'Send us your <b>receipts</b>',
      introductionViewDescription: 'We read them for you.',
      introductionViewNextButtonLabel: 'Let’s go',
    });
    const { element } = await mountView('extractor-introduction-view', { extractor });
    expect($(element, '[part~="heading"]').textContent?.trim()).toBe(
      'Send us your <b>receipts</b>',
    );
    expect($(element, '[part~="heading"]').querySelector('b')).toBeNull();
    expect($(element, '[part~="description"]').textContent?.trim()).toBe('We read them for you.');
    expect($(element, '[part~="next-button"]').textContent?.trim()).toBe('Let’s go');
  });

  it('falls back to the English defaults for empty labels', async () => {
    const extractor = await createExtractor({
      introductionViewHeading: '   ',
      introductionViewNextButtonLabel: '',
    });
    const { element } = await mountView('extractor-introduction-view', {
      labels: resolveLabels(extractor),
    });
    expect($(element, '[part~="heading"]').textContent?.trim()).toBe(
      labelDefaults.introductionViewHeading,
    );
    expect($(element, '[part~="next-button"]').textContent?.trim()).toBe(
      labelDefaults.introductionViewNextButtonLabel,
    );
  });

  it('asks for the upload step when the person goes on, by mouse or keyboard', async () => {
    const { element, events } = await mountView('extractor-introduction-view', {});
    await userEvent.click($(element, '[part~="next-button"]'));
    expect(events.map((event) => [event.type, event.detail])).toEqual([
      ['extractor-step-requested', { step: 'bucket' }],
    ]);
    expect(events[0]!.bubbles && events[0]!.composed).toBe(true);
    $(element, '[part~="next-button"]').focus();
    await userEvent.keyboard('{Enter}');
    expect(events).toHaveLength(2);
  });

  it('renders its heading at the level it is given and can take focus there', async () => {
    const { element } = await mountView('extractor-introduction-view', {});
    element.headingLevel = 1;
    await element.updateComplete;
    const heading = $(element, '[part~="heading"]');
    expect(heading.getAttribute('aria-level')).toBe('1');
    element.focusHeading();
    expect(element.shadowRoot!.activeElement).toBe(heading);
  });
});
