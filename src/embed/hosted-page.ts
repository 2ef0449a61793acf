/**
 * The entry of the hosted pages: `/x/{extractorId}` (the full page) and
 * `/embed/{extractorId}` (the same app for an iframe; the server marks it with
 * `<html data-layout="embed">`). Both are opened with `?session=xses_…`.
 *
 * On the full page the session leaves the address bar at once (history.replaceState), so it
 * is not bookmarked, shared or sent on; sessionStorage keeps it for a reload. The iframe
 * keeps it in its address: the server needs it on every load to answer with the session's
 * frame-ancestors, and nobody sees an iframe's address bar.
 *
 * On the full page each step the person reaches is an entry of the browser's history, so
 * Back and Forward move between the steps on the page instead of leaving it; what was typed
 * is a draft on the service all along, so moving loses nothing.
 *
 * `?locale=de` (embed.js's `locale`) sets the app's `locale`: its language before the
 * session's and the browser's.
 *
 * `?color-scheme=light|dark|auto` (embed.js's `colorScheme`) sets the scheme of the page and
 * the app; when absent the session's `colorScheme` does, once loaded (light by default).
 * The page follows it too, so a frame on a light partner page stays transparent even under
 * a dark system (a frame whose scheme differs from its host's gets an opaque background
 * from the browser).
 */
import { colorSchemeParameter, isColorScheme, type ColorScheme } from '../contract/color-scheme.js';
import {
  frameInstanceParameter,
  frameLocaleParameter,
  instanceIdPattern,
} from '../contract/frame-messages.js';
import type { AppMode, ExtractorApp } from '../elements/app/app.js';
import { isStep, type Step } from '../elements/internal/steps.js';
import { defineExtractorElements } from './define.js';

const embedded = document.documentElement.dataset.layout === 'embed';
const mode: AppMode = embedded ? 'frame' : 'page';
const extractorId = decodeURIComponent(window.location.pathname.split('/')[2] ?? '');
const storageKey = `extractor:session:${extractorId}`;

function keepSession(token: string): void {
  try {
    sessionStorage.setItem(storageKey, token);
  } catch {
    // Without storage a reload opens the page with the token of its address, if any.
  }
}

function takeSession(): string {
  const url = new URL(window.location.href);
  const fromAddress = url.searchParams.get('session');
  if (embedded) return fromAddress ?? '';
  try {
    if (fromAddress) {
      sessionStorage.setItem(storageKey, fromAddress);
      url.searchParams.delete('session');
      window.history.replaceState(window.history.state, '', url);
      return fromAddress;
    }
    return sessionStorage.getItem(storageKey) ?? '';
  } catch {
    // Without storage the session stays in the address, so a reload still works.
    return fromAddress ?? '';
  }
}

// In a frame the partner's page has the main landmark; a second one inside the frame
// would give a screen reader two (axe: landmark-unique). The frame's is a plain box.
const main = document.querySelector('main');
if (embedded && main) {
  const box = document.createElement('div');
  box.className = main.className;
  box.append(...main.childNodes);
  main.replaceWith(box);
}

const app =
  document.querySelector('extractor-app') ??
  document.body.appendChild(document.createElement('extractor-app'));
app.setAttribute('mode', mode);
app.setAttribute('heading-level', '1');
function showScheme(scheme: ColorScheme): void {
  document.documentElement.dataset.colorScheme = scheme;
  document
    .querySelector('meta[name="color-scheme"]')
    ?.setAttribute('content', scheme === 'auto' ? 'light dark' : scheme);
}
const address = new URL(window.location.href).searchParams;
const scheme = address.get(colorSchemeParameter);
if (isColorScheme(scheme)) {
  app.setAttribute('color-scheme', scheme);
  showScheme(scheme);
}
// embed.js's `locale`, over the session's: the element judges and falls back itself.
const locale = address.get(frameLocaleParameter);
if (locale) app.setAttribute('locale', locale);
app.addEventListener('extractor-session-loaded', (event) => {
  document.title = event.detail.labels.pageTitle;
  // The results show the document beside the fields: the page's card widens for them.
  document.documentElement.dataset.step = event.detail.step;
  // A renewed session's token, kept for a reload as the first one was.
  if (!embedded) keepSession((event.currentTarget as ExtractorApp).session);
  // Without a scheme in the address, the session's: the page follows the app.
  if (!isColorScheme(scheme)) showScheme(event.detail.colorScheme);
});
app.addEventListener('extractor-step-changed', (event) => {
  document.documentElement.dataset.step = event.detail.step;
});
if (!embedded) keepStepsInHistory(app as ExtractorApp);
const session = takeSession();
app.setAttribute('session', session);
defineExtractorElements();
if (embedded && window.parent !== window) void connectToHost(app, session);

/** The full page's steps as history entries: `{ extractorStep }` in each entry's state. */
function keepStepsInHistory(element: ExtractorApp): void {
  const entry = (step: Step) => ({ ...(window.history.state as object), extractorStep: step });
  // The step a Back or Forward asked for: reaching it adds no entry.
  let arriving: Step | undefined;
  element.addEventListener('extractor-session-loaded', (event) =>
    window.history.replaceState(entry(event.detail.step), ''),
  );
  element.addEventListener('extractor-step-changed', ({ detail }) => {
    if (detail.step === arriving) arriving = undefined;
    else window.history.pushState(entry(detail.step), '');
  });
  window.addEventListener('popstate', (event) => {
    const step = (event.state as { extractorStep?: unknown } | null)?.extractorStep;
    if (!isStep(step) || step === element.step) return;
    arriving = step;
    void element.goToStep(step).then(() => {
      // A step the state no longer allows (a run started over): the entry says where it is.
      if (element.step !== step && element.step) {
        arriving = undefined;
        window.history.replaceState(entry(element.step), '');
      }
    });
  });
}

/**
 * In a frame: the bridge to the partner's page, for the frame embed.js made (`?instance=`).
 * Loaded apart, so the full page does not carry it before its introduction shows.
 */
async function connectToHost(element: ExtractorApp, token: string): Promise<void> {
  const { FrameBridge } = await import('./bridge.js');
  const instance = address.get(frameInstanceParameter);
  new FrameBridge({
    app: element,
    token,
    instanceId: instance !== null && instanceIdPattern.test(instance) ? instance : null,
    host: window.parent,
    baseUrl: window.location.origin,
    parentOrigin: window.location.ancestorOrigins?.[0],
  }).connect();
}
