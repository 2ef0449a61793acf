/** Reading a run's event stream (`text/event-stream`) as a client does, for the tests. */

/**
 * One event as the stream sent it, its data parsed. A snapshot has an id when it stands for
 * the events before it (a stream begun without Last-Event-ID), none when they follow it.
 */
export interface StreamedEvent {
  id?: string;
  event: string;
  data: unknown;
}

/**
 * Reads events from `response` until `until` holds for those read so far or the service
 * ends the stream, then lets go of it. Comments (the keep-alives) are skipped.
 */
export async function readEvents(
  response: Response,
  until: (events: StreamedEvent[]) => boolean = () => false,
): Promise<StreamedEvent[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: StreamedEvent[] = [];
  while (!until(events)) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((line) => line && !line.startsWith(':'))
          .map((line) => [
            line.slice(0, line.indexOf(':')),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
      );
      if (fields.event)
        events.push({
          id: fields.id,
          event: fields.event,
          data: JSON.parse(fields.data ?? 'null'),
        });
    }
  }
  await reader.cancel();
  return events;
}
