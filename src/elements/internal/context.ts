/**
 * What the views share, provided once by `<extractor-app>` (through @lit/context) rather
 * than handed down property by property. Each value is replaced, never mutated, so a
 * consumer that subscribes redraws when it changes.
 */
import { createContext } from '@lit/context';
import type { ExtractorClient } from '../../client/client.js';
import type { Labels } from '../../contract/labels.js';
import type { Bucket, Extractor, Run } from '../../contract/resources.js';

export const clientContext = createContext<ExtractorClient | undefined>(Symbol('extractor-client'));
export const extractorContext = createContext<Extractor | undefined>(Symbol('extractor-extractor'));
export const labelsContext = createContext<Labels>(Symbol('extractor-labels'));
export const bucketContext = createContext<Bucket | undefined>(Symbol('extractor-bucket'));
/** The bucket's current run: the latest one, or `undefined` before the first. */
export const runContext = createContext<Run | undefined>(Symbol('extractor-run'));
