/**
 * The DOM events of the elements: `extractor-<noun>-<past-verb>`, bubbling and composed so
 * they leave the shadow roots and reach the page, each with a typed `detail`. The views
 * fire them upward and `<extractor-app>` acts on them; a host page may listen to any of
 * them on the app element. `extractor-submit-requested` is fired before the act and is
 * cancelable, so a host can take the submission over.
 */
import type { ColorScheme } from '../../contract/color-scheme.js';
import type { Labels } from '../../contract/labels.js';
import type {
  Bucket,
  BucketFile,
  Extractor,
  RunResults,
  Run,
  Submission,
} from '../../contract/resources.js';
import type { Step } from './steps.js';

export interface SessionLoadedDetail {
  extractor: Extractor;
  labels: Labels;
  bucket: Bucket;
  run: Run | undefined;
  step: Step;
  /** The colour scheme the app is drawn in (its attribute's, else the session's). */
  colorScheme: ColorScheme;
}

export interface SessionRefreshDetail {
  /** When the session ends (ISO 8601). */
  expiresAt: string;
}

export interface StepDetail {
  step: Step;
}

export interface StepChangedDetail {
  step: Step;
  previous: Step;
}

export interface FilesUploadedDetail {
  files: BucketFile[];
}

export interface FileRemovedDetail {
  file: BucketFile;
}

export interface RunDetail {
  run: Run;
}

export interface ResultsDetail {
  run: Run;
  /**
   * The results as edited, in the service's shape: `{documents: [{file, name, status, data,
   * error}]}`, one entry per document (file) in the bucket's order.
   */
  data: RunResults;
  /** The document whose edits were saved (`extractor-results-changed` only): its file IRI. */
  file?: string;
}

export interface ResultsSubmittedDetail {
  run: Run;
  submission: Submission;
}

export interface ExtractorEventMap {
  /** The session, extractor and bucket are loaded and the first view shows. */
  'extractor-session-loaded': CustomEvent<SessionLoadedDetail>;
  /**
   * The session ends in a minute: the host should set `session` to a fresh token for the
   * same extractor and bucket, and the person goes on where they are, without a reload.
   */
  'extractor-session-refresh-requested': CustomEvent<SessionRefreshDetail>;
  /** The session ended: set `session` to a fresh token for the same bucket to go on. */
  'extractor-session-expired': CustomEvent<SessionRefreshDetail>;
  /** A view asks the app to go to a step. */
  'extractor-step-requested': CustomEvent<StepDetail>;
  'extractor-step-changed': CustomEvent<StepChangedDetail>;
  'extractor-files-uploaded': CustomEvent<FilesUploadedDetail>;
  'extractor-file-removed': CustomEvent<FileRemovedDetail>;
  'extractor-run-started': CustomEvent<RunDetail>;
  /** A person paused, resumed or cancelled the run. */
  'extractor-run-changed': CustomEvent<RunDetail>;
  /** More chunks are done. */
  'extractor-run-progressed': CustomEvent<RunDetail>;
  'extractor-run-completed': CustomEvent<RunDetail>;
  'extractor-run-failed': CustomEvent<RunDetail>;
  /** Edited results were saved. */
  'extractor-results-changed': CustomEvent<ResultsDetail>;
  /** Cancelable: a host that calls preventDefault() submits in its own way. */
  'extractor-submit-requested': CustomEvent<ResultsDetail>;
  'extractor-results-submitted': CustomEvent<ResultsSubmittedDetail>;
}

export type ExtractorEventName = keyof ExtractorEventMap;
export type ExtractorEventDetail<K extends ExtractorEventName> = ExtractorEventMap[K]['detail'];

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GlobalEventHandlersEventMap extends ExtractorEventMap {}
}

/** Fires one of our events; `false` when a listener cancelled a cancelable one. */
export function fire<K extends ExtractorEventName>(
  target: EventTarget,
  type: K,
  detail: ExtractorEventDetail<K>,
  options: { cancelable?: boolean } = {},
): boolean {
  return target.dispatchEvent(
    new CustomEvent(type, {
      detail,
      bubbles: true,
      composed: true,
      cancelable: options.cancelable ?? false,
    }),
  );
}
