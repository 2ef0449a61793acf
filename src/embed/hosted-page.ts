/**
 * The entry of the hosted pages: `/x/{extractorId}` (the full page) and
 * `/embed/{extractorId}` (the same app for an iframe; the server marks it with
 * `<html data-layout="embed">`). Both are opened with `?session=xses_…`.
 *
 * On the full page the session leaves the address bar at once (history.replaceState), so it
 * is not bookmarked, shared or sent on; sessionStorage keeps it for a reload. The iframe
 * keeps it in its address: the server needs it on every load to answer with the session's
 * frame-ancestors, and nobody sees an iframe's address bar.
 */
import { frameInstanceParameter, instanceIdPattern } from '../contract/frame-messages.js';
import type { AppMode, ExtractorApp } from '../elements/app/app.js';
import { defineExtractorElements } from './define.js';

const embedded = document.documentElement.dataset.layout === 'embed';
const mode: AppMode = embedded ? 'frame' : 'page';
const extractorId = decodeURIComponent(window.location.pathname.split('/')[2] ?? '');
const storageKey = `extractor:session:${extractorId}`;

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

const app =
  document.querySelector('extractor-app') ??
  document.body.appendChild(document.createElement('extractor-app'));
app.setAttribute('mode', mode);
app.setAttribute('heading-level', '1');
app.addEventListener('extractor-session-loaded', (event) => {
  document.title = event.detail.labels.pageTitle;
});
const session = takeSession();
app.setAttribute('session', session);
defineExtractorElements();
if (embedded && window.parent !== window) void connectToHost(app, session);

/**
 * In a frame: the bridge to the partner's page, for the frame embed.js made (`?instance=`).
 * Loaded apart, so the full page does not carry it before its introduction shows.
 */
async function connectToHost(element: ExtractorApp, token: string): Promise<void> {
  const { FrameBridge } = await import('./bridge.js');
  const instance = new URL(window.location.href).searchParams.get(frameInstanceParameter);
  new FrameBridge({
    app: element,
    token,
    instanceId: instance !== null && instanceIdPattern.test(instance) ? instance : null,
    host: window.parent,
    baseUrl: window.location.origin,
    parentOrigin: window.location.ancestorOrigins?.[0],
  }).connect();
}
