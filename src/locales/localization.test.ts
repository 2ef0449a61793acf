import { msg, str } from '@lit/localize';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createExtractor, mintSession } from '../client/testing/fixtures.js';
import { defineAllExtractorElements } from '../embed/define.js';
import type { ExtractorApp } from '../elements/app/app.js';
import { tableText } from '../elements/wording/messages.js';
import { $ } from '../elements/testing/mount.js';
import { formatNumber } from './format.js';
import {
  applyLocale,
  directionOf,
  formattingLocale,
  loadLaterTexts,
  matchLocale,
} from './localization.js';

const stepCount = () =>
  msg(str`Step ${formatNumber(1)} of ${formatNumber(4)}`, { id: 'app.step-count' });

afterEach(async () => {
  document.querySelectorAll('extractor-app').forEach((app) => app.remove());
  await applyLocale({ locale: 'en', tag: 'en' });
});

describe('matchLocale', () => {
  it('takes the first tag whose language has a catalogue, keeping the tag for formats', () => {
    expect(matchLocale(['de-AT'])).toEqual({ locale: 'de', tag: 'de-AT' });
    expect(matchLocale([undefined, 'fr', 'de'])).toEqual({ locale: 'fr', tag: 'fr' });
    expect(matchLocale(['sv-SE', 'PT-br'])).toEqual({ locale: 'pt', tag: 'pt-BR' });
    expect(matchLocale(['not a tag!', null, ''])).toEqual({ locale: 'en', tag: 'en' });
    expect(matchLocale([])).toEqual({ locale: 'en', tag: 'en' });
  });

  it('knows which languages are written right to left', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('he-IL')).toBe('rtl');
    expect(directionOf('de')).toBe('ltr');
  });
});

describe('applyLocale', () => {
  // First in the file: until a later view asks for its texts, a locale loads only its first part.
  it('loads the later views’ texts when asked, into the same templates, under the partner’s', async () => {
    const files = () => msg('Files', { id: 'bucket.files' });
    const filter = () => msg('Filter', { id: 'table.filter' });
    await applyLocale({ locale: 'de', tag: 'de' }, { 'table.filter': 'Suchen' });
    expect(msg('Loading…', { id: 'app.loading' })).toBe('Wird geladen …');
    expect(files()).toBe('Files');
    await loadLaterTexts();
    expect(files()).toBe('Dateien');
    expect(filter()).toBe('Suchen');
    expect(msg('Loading…', { id: 'app.loading' })).toBe('Wird geladen …');
    // A locale applied afterwards comes with both parts at once.
    await applyLocale({ locale: 'fr', tag: 'fr' });
    expect(files()).toBe('Fichiers');
    await applyLocale({ locale: 'de', tag: 'de' });
    expect(files()).toBe('Dateien');
  });

  it('loads the catalogue of the locale and lays a partner’s texts over it', async () => {
    await applyLocale({ locale: 'de', tag: 'de' });
    expect(msg('Loading…', { id: 'app.loading' })).toBe('Wird geladen …');
    expect(stepCount()).toBe('Schritt 1 von 4');
    // Values go where the partner's {n} put them.
    await applyLocale(
      { locale: 'de', tag: 'de' },
      { 'app.step-count': '{1} Schritte, dies ist {0}' },
    );
    expect(stepCount()).toBe('4 Schritte, dies ist 1');
    expect(msg('Loading…', { id: 'app.loading' })).toBe('Wird geladen …');
    // Without the override the catalogue's text is back.
    await applyLocale({ locale: 'de', tag: 'de' });
    expect(stepCount()).toBe('Schritt 1 von 4');
  });

  it('overrides English texts too', async () => {
    await applyLocale({ locale: 'en', tag: 'en-GB' }, { 'app.loading': 'One moment…' });
    expect(msg('Loading…', { id: 'app.loading' })).toBe('One moment…');
    expect(formattingLocale()).toBe('en-GB');
  });

  it('picks each language’s plural form', async () => {
    await applyLocale({ locale: 'pl', tag: 'pl' });
    expect([1, 2, 5, 22, 25].map((count) => tableText.rows(count))).toEqual([
      '1 wiersz',
      '2 wiersze',
      '5 wierszy',
      '22 wiersze',
      '25 wierszy',
    ]);
    await applyLocale({ locale: 'ar', tag: 'ar' });
    const n = (value: number) => formatNumber(value);
    expect([0, 1, 2, 3, 11, 100].map((count) => tableText.rows(count))).toEqual([
      `${n(0)} صف`,
      `صف واحد (${n(1)})`,
      `صفان (${n(2)})`,
      `${n(3)} صفوف`,
      `${n(11)} صفًا`,
      `${n(100)} صف`,
    ]);
  });
});

describe('<extractor-app> locale', () => {
  async function mountApp(attributes: Record<string, string>, strings?: Record<string, string>) {
    await defineAllExtractorElements();
    const app = document.createElement('extractor-app');
    for (const [name, value] of Object.entries(attributes)) app.setAttribute(name, value);
    if (strings) app.strings = strings;
    document.body.append(app);
    await new Promise((resolve) =>
      app.addEventListener('extractor-session-loaded', resolve, { once: true }),
    );
    await app.updateComplete;
    return app;
  }

  const text = (app: ExtractorApp, selector: string) =>
    vi.waitFor(() => $(app, selector).textContent?.trim() ?? '');

  it('speaks the attribute’s language over the browser’s, with lang and dir on the host', async () => {
    const session = await mintSession(await createExtractor());
    const app = await mountApp({ session: session.token, locale: 'ar-EG' });
    expect(app.lang).toBe('ar-EG');
    expect(app.dir).toBe('rtl');
    // The count, and the step's name after it (shown where the bar's names do not fit).
    expect(await text(app, '.step-count')).toBe(
      `الخطوة ${new Intl.NumberFormat('ar-EG').format(1)} من ${new Intl.NumberFormat('ar-EG').format(4)}: البداية`,
    );
    app.locale = 'fr';
    await vi.waitFor(() =>
      expect($(app, '.step-count').textContent?.trim()).toBe('Étape 1 sur 4: Début'),
    );
    expect(app.dir).toBe('ltr');
  });

  it('speaks the session’s language unless the element names one, and shows the session’s strings', async () => {
    const session = await mintSession(await createExtractor(), {
      locale: 'fr',
      strings: { 'app.step-count': 'Étape {0} (sur {1}), dite par la session' },
    });
    // Without an attribute the session's locale wins over the browser's (English here).
    const fromSession = await mountApp({ session: session.token });
    expect(fromSession.lang).toBe('fr');
    expect(await text(fromSession, '.step-count')).toBe(
      'Étape 1 (sur 4), dite par la session: Début',
    );
    const french = $(fromSession, 'extractor-introduction-view');
    await vi.waitFor(() =>
      expect($(french, '[part~="next-button"]').textContent?.trim()).toBe('Commencer'),
    );
    fromSession.remove();

    // The element's attribute wins over the session's locale; the session's strings still show.
    const fromAttribute = await mountApp({ session: session.token, locale: 'de' });
    expect(fromAttribute.lang).toBe('de');
    expect(await text(fromAttribute, '.step-count')).toBe(
      'Étape 1 (sur 4), dite par la session: Beginn',
    );
    const view = $(fromAttribute, 'extractor-introduction-view');
    await vi.waitFor(() =>
      expect($(view, '.description').textContent?.trim()).toMatch(/^Laden Sie Ihre Dokumente hoch/),
    );
    // The element's strings lie over the session's.
    fromAttribute.strings = { 'app.step-count': 'Schritt {0} von {1}, vom Element' };
    await vi.waitFor(() =>
      expect($(fromAttribute, '.step-count').textContent?.trim()).toBe(
        'Schritt 1 von 4, vom Element: Beginn',
      ),
    );
  });

  it('puts the extractor’s label over the element’s strings, and those over the catalogue', async () => {
    const extractor = await createExtractor({ introductionViewHeading: 'Send us your invoice' });
    const session = await mintSession(extractor);
    const app = await mountApp(
      { session: session.token, locale: 'de' },
      {
        'label.introduction-view-heading': 'Never shown: the extractor has its own',
        'label.introduction-view-next-button-label': 'Jetzt beginnen',
      },
    );
    const view = $(app, 'extractor-introduction-view');
    await vi.waitFor(() => {
      expect($(view, '.heading').textContent?.trim()).toBe('Send us your invoice');
      expect($(view, '[part~="next-button"]').textContent?.trim()).toBe('Jetzt beginnen');
      // A label neither sets comes from the German catalogue.
      expect($(view, '.description').textContent?.trim()).toMatch(/^Laden Sie Ihre Dokumente hoch/);
    });
  });
});
