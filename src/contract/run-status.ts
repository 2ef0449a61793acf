/**
 * The life of an extraction run. The spec leaves statuses and transitions to us
 * ("Values of status: not shown"); this table is the single source of truth for the
 * server's state machine and for the controls the interface offers.
 *
 *   queued ──► running ──► completed
 *     │  ▲        │ │
 *     │  │        │ └────► failed
 *     │  │        ▼
 *     │  └──── paused
 *     │           │
 *     └───────────┴──────► cancelled   (from queued, running or paused)
 */
export const runStatuses = [
  'queued',
  'running',
  'paused',
  'completed',
  'failed',
  'cancelled',
] as const;

export type RunStatus = (typeof runStatuses)[number];

export const runTransitions: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  queued: ['running', 'cancelled'],
  running: ['paused', 'completed', 'failed', 'cancelled'],
  paused: ['queued', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

export const finalRunStatuses: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];

export function isFinalRunStatus(status: RunStatus): boolean {
  return finalRunStatuses.includes(status);
}

export function canTransition(from: RunStatus, to: RunStatus): boolean {
  return runTransitions[from].includes(to);
}

/** The person-facing commands of a run and the status each one moves the run to. */
export const runCommands = {
  pause: 'paused',
  resume: 'queued',
  cancel: 'cancelled',
} as const satisfies Record<string, RunStatus>;

export type RunCommand = keyof typeof runCommands;

export function canRunCommand(status: RunStatus, command: RunCommand): boolean {
  return canTransition(status, runCommands[command]);
}
