/**
 * One line per event from the element, as the partner pages show them. File names are
 * left out so that the log's lines are not taken for the element's own list of files.
 */
export function describeEvent(event: Event): string {
  const detail = (event as CustomEvent<Record<string, unknown>>).detail ?? {};
  const files = detail.files as unknown[] | undefined;
  const run = detail.run as { status: string } | undefined;
  const facts = [
    typeof detail.step === 'string' ? `step ${detail.step}` : '',
    files ? `${files.length} file${files.length === 1 ? '' : 's'}` : '',
    run ? `run ${run.status}` : '',
  ].filter(Boolean);
  return [event.type, ...facts].join(': ');
}
