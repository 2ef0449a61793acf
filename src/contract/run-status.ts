/**
 * The life of an extraction run. The spec leaves statuses and transitions to us
 * ("Values of status: not shown"); this table is the single source of truth for the
 * server's state machine and for the controls the interface offers.
 *
 *                    ┌──────────────── extract a failed document again ──────────────┐
 *                    ▼                                                                │
 *   ──────────► queued ──► running ──► completed                                      │
 *                │  ▲        │ │ └───► partially_completed ───────────────────────────┤
 *                │  │        │ └─────► failed ────────────────────────────────────────┘
 *                │  │        ▼
 *                │  └──── paused
 *                │           │
 *                └───────────┴───────► cancelled   (from queued, running or paused)
 *
 * A run's documents are its files (or, with combineFiles, all of them as one). A run ends
 * `completed` when every document completed, `partially_completed` when some completed and
 * some failed, `failed` when every document failed or the run could not be worked at all.
 */
export const runStatuses = [
  'queued',
  'running',
  'paused',
  'completed',
  'partially_completed',
  'failed',
  'cancelled',
] as const;

export type RunStatus = (typeof runStatuses)[number];

export const runTransitions: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  queued: ['running', 'cancelled'],
  running: ['paused', 'completed', 'partially_completed', 'failed', 'cancelled'],
  paused: ['queued', 'cancelled'],
  completed: [],
  // Only by extracting one of its failed documents again (retry or replace a file).
  partially_completed: ['queued'],
  failed: ['queued'],
  cancelled: [],
};

/**
 * The settled statuses: the worker is done with the run and its event stream ends. Of
 * these, `partially_completed` and `failed` can be reopened by extracting a failed document
 * again; `completed` and `cancelled` never change again.
 */
export const finalRunStatuses: readonly RunStatus[] = [
  'completed',
  'partially_completed',
  'failed',
  'cancelled',
];

export function isFinalRunStatus(status: RunStatus): boolean {
  return finalRunStatuses.includes(status);
}

export function canTransition(from: RunStatus, to: RunStatus): boolean {
  return runTransitions[from].includes(to);
}

/** The statuses whose results can be read, edited and submitted: some document completed. */
export const runStatusesWithResults: readonly RunStatus[] = ['completed', 'partially_completed'];

/** The statuses from which a failed document can be extracted again (retry or replace). */
export const reopenableRunStatuses: readonly RunStatus[] = ['partially_completed', 'failed'];

/** The person-facing commands of a run and the status each one moves the run to. */
export const runCommands = {
  pause: 'paused',
  resume: 'queued',
  cancel: 'cancelled',
} as const satisfies Record<string, RunStatus>;

export type RunCommand = keyof typeof runCommands;

/**
 * The statuses each command starts from. `resume` is only for a paused run: a settled run
 * goes back to `queued` only through one of its failed documents (see reopenableRunStatuses).
 */
export const runCommandSources: Readonly<Record<RunCommand, readonly RunStatus[]>> = {
  pause: ['running'],
  resume: ['paused'],
  cancel: ['queued', 'running', 'paused'],
};

export function canRunCommand(status: RunStatus, command: RunCommand): boolean {
  return runCommandSources[command].includes(status);
}

/** The status of one document of a run. */
export const documentStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export type DocumentStatus = (typeof documentStatuses)[number];
