/**
 * The Server-Sent Events of one run (`GET /api/extraction_runs/{id}/events`): a `snapshot`
 * first, then one event per change, each checked against the contract before it is handed
 * on. Reconnecting and falling back to polling are the run watcher's business; this module
 * only opens, reads and closes one stream.
 */
import {
  runEventDataSchema,
  runEventTypes,
  type RunEventData,
  type RunEventType,
} from '../contract/events.js';

export interface RunEventMessage {
  type: RunEventType | 'snapshot';
  /** The event's id, for resuming after it; empty for a snapshot sent on resuming. */
  id: string;
  data: RunEventData;
}

export interface RunEventHandlers {
  onOpen?: () => void;
  onEvent: (message: RunEventMessage) => void;
  /** The stream failed; `closed` when the browser gave up on it rather than retrying. */
  onError?: (closed: boolean) => void;
}

export type EventSourceFactory = (url: string) => EventSource;

export const createEventSource: EventSourceFactory = (url) => new EventSource(url);

export interface RunEventStream {
  close(): void;
}

export function openRunEvents(
  url: string,
  handlers: RunEventHandlers,
  create: EventSourceFactory = createEventSource,
): RunEventStream {
  const source = create(url);
  const listener = (event: Event) => {
    const message = event as MessageEvent<string>;
    let payload: unknown;
    try {
      payload = JSON.parse(message.data);
    } catch {
      return;
    }
    const parsed = runEventDataSchema.safeParse(payload);
    // An event we cannot read is skipped: the next one, or the watcher's reload, repairs it.
    if (!parsed.success) return;
    handlers.onEvent({
      type: event.type as RunEventMessage['type'],
      id: message.lastEventId,
      data: parsed.data,
    });
  };
  for (const type of ['snapshot', ...runEventTypes]) source.addEventListener(type, listener);
  source.addEventListener('open', () => handlers.onOpen?.());
  source.addEventListener('error', () =>
    handlers.onError?.(source.readyState === EventSource.CLOSED),
  );
  return {
    close() {
      source.close();
    },
  };
}
