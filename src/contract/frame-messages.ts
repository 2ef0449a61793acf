/**
 * The messages between the hosted iFrame page and the page that frames it, sent with
 * `window.postMessage`. Every message is
 *
 *   { type: 'extractor:<name>', version: 1, instanceId, payload }
 *
 * `instanceId` is the frame's `instance` address parameter (embed.js sets one per frame),
 * or null when the frame was made without one. The frame posts only to an origin its
 * session allows, and takes commands only from its parent window at an allowed origin;
 * embed.js takes events only from its own frame's window at the frame's origin with the
 * frame's instance id. Both ignore anything else without a word.
 *
 * Constants and types only: the host script (/sdk/embed.js) imports this file and must
 * stay tiny.
 */
import type { BucketFile, Run, Submission, Theme } from './resources.js';

export const frameMessagePrefix = 'extractor:';
export const frameProtocolVersion = 1;

/** The address parameter that carries a frame's instance id. */
export const frameInstanceParameter = 'instance';

/** The address parameter that carries embed.js's `locale`: the frame's language. */
export const frameLocaleParameter = 'locale';

/** A one-minute warning: the host has that long to answer with a fresh token. */
export const sessionExpiryWarningMs = 60_000;

/** The steps of the flow, as src/elements/internal/steps.ts names them. */
type Step = 'introduction' | 'bucket' | 'extraction' | 'results';

/** From the frame to the host. */
export interface FrameEventPayloads {
  /** The flow is loaded and takes commands. */
  ready: { step: Step; savedExtractor: string; bucket: string; expiresAt: string };
  'step-changed': { step: Step; previous: Step };
  'files-uploaded': { files: BucketFile[] };
  'run-started': { run: Run };
  /** More chunks are done: `run.chunksCompleted` of `run.chunksTotal`. */
  'run-progress': { run: Run };
  'run-completed': { run: Run };
  'run-failed': { run: Run };
  /** Edited results were saved; `data` is the results as they stand. */
  'results-changed': { run: Run; data: unknown };
  'results-submitted': { run: Run; submission: Submission };
  /** The height of the frame's content in CSS pixels: size the frame to it. */
  resize: { height: number };
  /** The session ends in a minute or less: answer with `refresh-session`. */
  'session-expiring': { expiresAt: string };
  /**
   * The session has ended (nobody answered the warning): the person's work is saved, and a
   * `refresh-session` with a new token for the same bucket goes on where they were.
   */
  'session-expired': { expiresAt: string };
}

/** From the host to the frame. */
export interface FrameCommandPayloads {
  /** Replaces the theme set by an earlier set-theme; the session's theme stays beneath it. */
  'set-theme': { theme: Theme };
  'go-to-step': { step: Step };
  /** A new session token for the same extractor and bucket. */
  'refresh-session': { token: string };
  /** Texts for built-in messages by id, over the session's `strings`. */
  'set-strings': { strings: Record<string, string> };
}

export type FrameEventName = keyof FrameEventPayloads;
export type FrameCommandName = keyof FrameCommandPayloads;

export const frameEventNames = [
  'ready',
  'step-changed',
  'files-uploaded',
  'run-started',
  'run-progress',
  'run-completed',
  'run-failed',
  'results-changed',
  'results-submitted',
  'resize',
  'session-expiring',
  'session-expired',
] as const satisfies readonly FrameEventName[];

export const frameCommandNames = [
  'set-theme',
  'go-to-step',
  'refresh-session',
  'set-strings',
] as const satisfies readonly FrameCommandName[];

export interface FrameMessage<Name extends string, Payload> {
  type: `${typeof frameMessagePrefix}${Name}`;
  version: typeof frameProtocolVersion;
  instanceId: string | null;
  payload: Payload;
}

export type FrameEventMessage<Name extends FrameEventName = FrameEventName> = FrameMessage<
  Name,
  FrameEventPayloads[Name]
>;
export type FrameCommandMessage<Name extends FrameCommandName = FrameCommandName> = FrameMessage<
  Name,
  FrameCommandPayloads[Name]
>;

/** An instance id as embed.js makes them; anything else in the address is not one. */
export const instanceIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
