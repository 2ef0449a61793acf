/**
 * What the document pane marks on a document's pages: where each value is, by its name
 * for people. Where the person took a value from wins over where the machine found it.
 */
import type { PaneHighlight } from '../document-pane/document-pane.js';
import { titleAt } from '../wording/messages.js';
import type { DocumentDraft } from './document-drafts.js';

/** A value's name for people: its title, with the item's number in a list. */
export function nameOf(draft: DocumentDraft, pointer: string): string | undefined {
  const found = draft.editor.schemaAt(pointer);
  if (!found) return undefined;
  const title = titleAt(pointer, found.schema);
  const item = found.path.find((token) => typeof token === 'number');
  return item === undefined ? title : `${title} ${item + 1}`;
}

/** Where the values of a document are on its pages: the person's picks, else the machine's. */
export function highlightsOf(draft: DocumentDraft): PaneHighlight[] {
  const review = draft.review;
  if (!review) return [];
  const highlights: PaneHighlight[] = [];
  const pointers = new Set(Object.keys(review.sources));
  for (const [pointer] of review.pickedEntries) pointers.add(pointer);
  for (const pointer of pointers) {
    const name = nameOf(draft, pointer);
    if (!name) continue;
    const picked = review.picked(pointer);
    const source = review.sources[pointer];
    if (picked)
      highlights.push({
        pointer,
        name,
        page: picked.page,
        offset: picked.offset ?? -1,
        text: picked.offset === undefined ? '' : picked.text,
        boxes: picked.boxes,
      });
    else if (source && source.fileId === draft.document.fileId)
      highlights.push({
        pointer,
        name,
        page: source.page,
        offset: source.offset,
        text: source.text,
        boxes: source.boxes ?? [],
      });
  }
  return highlights;
}
