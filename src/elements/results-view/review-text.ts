/**
 * What the review beside the document says, in the person's words: the document pane's
 * controls and each field's state. The built-in texts are all here, to move into the
 * catalogue with the others.
 */
export const paneText = {
  label: (name: string) => `Document: ${name}`,
  fields: 'Fields',
  document: 'Document',
  /** The toggle's group, on a narrow screen. */
  show: 'Show',
  pages: 'Pages',
  page: (page: number, count: number) => `Page ${page} of ${count}`,
  previousPage: 'Previous page',
  nextPage: 'Next page',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  fitWidth: 'Fit to width',
  zoom: (percent: number) => `${percent}%`,
  loading: 'Loading the page…',
  pageAlt: (page: number, name: string) => `Page ${page} of ${name}`,
  /** A highlighted box, read by a screen reader: which value it is and where. */
  box: (field: string, page: number) => `${field}: found on page ${page}`,
  /** Said when a field's source is shown. */
  shown: (field: string, page: number) => `${field} found on page ${page}.`,
  notOnPage: (field: string) => `${field} was not found in the document.`,
  fillHint: (field: string) => `Select words on the page to fill “${field}”.`,
  filled: (field: string, text: string) => `${field} filled with “${text}” from the document.`,
  noPages: 'This document has no pages to show.',
};

export const fieldStateText = {
  found: 'Found',
  foundOn: (page: number) => `Found on page ${page}`,
  notFound: 'Not found',
  edited: 'Edited by you',
  editedFrom: (page: number) => `Edited by you, from page ${page}`,
  review: 'Needs review',
  lowConfidence: 'We are not sure we read this right; compare it with the document.',
  showInDocument: 'Show in document',
  showInDocumentName: (field: string) => `Show ${field} in the document`,
  /** At the top of the fields. */
  reviewCount: (count: number) =>
    count === 1 ? '1 value needs review' : `${count} values need review`,
  allReviewed: 'No value needs review',
};
