/**
 * Puts a view on the page the way `<extractor-app>` would: inside a host that provides
 * client, extractor, labels, bucket and run through @lit/context. The values are real ones
 * from the service (see src/client/testing/fixtures.ts); a test can replace any of them.
 */
import { ContextProvider, type Context } from '@lit/context';
import { resolveLabels, type Labels } from '../../contract/labels.js';
import type { Bucket, Extractor, Run } from '../../contract/resources.js';
import type { ExtractorClient } from '../../client/client.js';
import { defineAllExtractorElements } from '../../embed/define.js';
import {
  bucketContext,
  clientContext,
  extractorContext,
  labelsContext,
  runContext,
} from '../internal/context.js';
import type { ExtractorEventMap, ExtractorEventName } from '../internal/events.js';

export interface Provided {
  client?: ExtractorClient;
  extractor?: Extractor;
  labels?: Labels;
  bucket?: Bucket;
  run?: Run;
}

export interface Mounted<T extends HTMLElement> {
  element: T;
  /** Replaces provided values, as the app does when the service's state changes. */
  provide(values: Provided): Promise<void>;
  /** Every event of our kind that left the view, oldest first. */
  events: CustomEvent[];
  remove(): void;
}

const mounted: HTMLElement[] = [];

export async function mountView<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  values: Provided,
): Promise<Mounted<HTMLElementTagNameMap[K]>> {
  await defineAllExtractorElements();
  const host = document.createElement('div');
  document.body.append(host);
  mounted.push(host);
  const providers = {
    client: new ContextProvider(host, { context: clientContext, initialValue: values.client }),
    extractor: new ContextProvider(host, {
      context: extractorContext,
      initialValue: values.extractor,
    }),
    labels: new ContextProvider(host, {
      context: labelsContext,
      initialValue: values.labels ?? resolveLabels(values.extractor ?? {}),
    }),
    bucket: new ContextProvider(host, { context: bucketContext, initialValue: values.bucket }),
    run: new ContextProvider(host, { context: runContext, initialValue: values.run }),
  };
  for (const provider of Object.values(providers)) provider.hostConnected();
  const element = document.createElement(tag);
  const events: CustomEvent[] = [];
  for (const type of eventTypes)
    host.addEventListener(type, (event) => events.push(event as CustomEvent));
  host.append(element);
  await (element as unknown as { updateComplete: Promise<unknown> }).updateComplete;
  return {
    element,
    events,
    async provide(next) {
      for (const [key, value] of Object.entries(next) as [keyof Provided, unknown][]) {
        (providers[key] as ContextProvider<Context<unknown, unknown>>).setValue(value);
        if (key === 'extractor' && !next.labels)
          providers.labels.setValue(resolveLabels((value ?? {}) as Extractor));
      }
      await (element as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    },
    remove() {
      host.remove();
    },
  };
}

const eventTypes: ExtractorEventName[] = [
  'extractor-session-loaded',
  'extractor-step-requested',
  'extractor-step-changed',
  'extractor-files-uploaded',
  'extractor-file-removed',
  'extractor-run-started',
  'extractor-run-changed',
  'extractor-run-progressed',
  'extractor-run-completed',
  'extractor-run-failed',
  'extractor-results-changed',
  'extractor-submit-requested',
  'extractor-results-submitted',
];

/** Removes what earlier tests mounted. */
export function unmountAll(): void {
  for (const host of mounted.splice(0)) host.remove();
}

/** The first event of a type fired from now on. */
export function nextEvent<K extends ExtractorEventName>(
  target: EventTarget,
  type: K,
): Promise<ExtractorEventMap[K]> {
  return new Promise((resolve) =>
    target.addEventListener(type, (event) => resolve(event as ExtractorEventMap[K]), {
      once: true,
    }),
  );
}

/** The shadow root's elements matching a selector. */
export function $$<E extends Element = HTMLElement>(element: Element, selector: string): E[] {
  return [...(element.shadowRoot?.querySelectorAll<E>(selector) ?? [])];
}

export function $<E extends Element = HTMLElement>(element: Element, selector: string): E {
  const found = element.shadowRoot?.querySelector<E>(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
}

/** The visible labels of the buttons in a view's action row, in order. */
export function actionLabels(element: Element): string[] {
  return $$(element, '[part~="actions"] button').map((button) => button.textContent!.trim());
}
