/**
 * The four steps of the flow and where a person lands when they come back. The server's
 * state decides what is possible (no results view without a completed run); a hint kept
 * in sessionStorage says where within that the person last was.
 */
import type { Run } from '../../contract/resources.js';
import { runStatusesWithResults } from '../../contract/run-status.js';

export const steps = ['introduction', 'bucket', 'extraction', 'results'] as const;
export type Step = (typeof steps)[number];

export function isStep(value: unknown): value is Step {
  return typeof value === 'string' && (steps as readonly string[]).includes(value);
}

export interface FlowState {
  fileCount: number;
  run: Run | undefined;
}

/** A completed or partially completed run: its completed documents have records to review. */
const hasResults = (run: Run | undefined) =>
  run !== undefined && runStatusesWithResults.includes(run.status);

/** Whether a step can be shown for this state. */
export function canShowStep(step: Step, state: FlowState): boolean {
  if (step === 'extraction') return state.run !== undefined;
  if (step === 'results') return hasResults(state.run);
  return true;
}

/**
 * Where to resume: the hinted step when it is still possible, else the furthest one. A
 * submitted run always shows as submitted: coming back must not look like work to redo.
 */
export function resumeStep(state: FlowState, hint?: string | null): Step {
  if (state.run?.submittedAt && hasResults(state.run)) return 'results';
  if (isStep(hint) && canShowStep(hint, state)) return hint;
  if (hasResults(state.run)) return 'results';
  if (state.run) return 'extraction';
  if (state.fileCount > 0) return 'bucket';
  return 'introduction';
}

/** Whether a person corrected values of `run` that are not submitted: leaving them asks first. */
export function hasUnsubmittedEdits(run: Run | undefined): boolean {
  return !!run && run.editedResultJson !== null && !run.submittedAt;
}
