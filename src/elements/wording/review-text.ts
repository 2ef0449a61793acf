/**
 * What the review beside the document says, in the person's words: the document pane's
 * controls and each field's state, through the catalogue (src/locales), with numbers in the
 * locale's digits.
 */
import { msg, str } from '@lit/localize';
import { formatNumber, formatPercent } from '../../locales/format.js';
import { plural } from '../../locales/plural.js';

export const paneText = {
  label: (name: string) => msg(str`Document: ${name}`, { id: 'review.pane' }),
  get fields() {
    return msg('Fields', { id: 'review.fields' });
  },
  get document() {
    return msg('Document', { id: 'review.document' });
  },
  /** The toggle's group, on a narrow screen. */
  get show() {
    return msg('Show', { id: 'review.show' });
  },
  get pages() {
    return msg('Pages', { id: 'review.pages' });
  },
  page: (page: number, count: number) =>
    msg(str`Page ${formatNumber(page)} of ${formatNumber(count)}`, { id: 'review.page' }),
  get previousPage() {
    return msg('Previous page', { id: 'review.previous-page' });
  },
  get nextPage() {
    return msg('Next page', { id: 'review.next-page' });
  },
  get zoomGroup() {
    return msg('Zoom', { id: 'review.zoom-group' });
  },
  get zoomIn() {
    return msg('Zoom in', { id: 'review.zoom-in' });
  },
  get zoomOut() {
    return msg('Zoom out', { id: 'review.zoom-out' });
  },
  get fitWidth() {
    return msg('Fit to width', { id: 'review.fit-width' });
  },
  zoom: (percent: number) => formatPercent(percent),
  get loading() {
    return msg('Loading the page…', { id: 'review.loading' });
  },
  pageAlt: (page: number, name: string) =>
    msg(str`Page ${formatNumber(page)} of ${name}`, { id: 'review.page-of-document' }),
  /** A highlighted box, read by a screen reader: which value it is and where. */
  box: (field: string, page: number) =>
    msg(str`${field}: found on page ${formatNumber(page)}`, { id: 'review.box' }),
  /** Said when a field's source is shown. */
  shown: (field: string, page: number) =>
    msg(str`${field} found on page ${formatNumber(page)}.`, { id: 'review.shown' }),
  notOnPage: (field: string) =>
    msg(str`${field} was not found in the document.`, { id: 'review.not-found-in-document' }),
  fillHint: (field: string) =>
    msg(str`Select words on the page to fill “${field}”.`, { id: 'review.fill-hint' }),
  filled: (field: string, text: string) =>
    msg(str`${field} filled with “${text}” from the document.`, { id: 'review.filled' }),
  get noPages() {
    return msg('This document has no pages to show.', { id: 'review.no-pages' });
  },
};

export const fieldStateText = {
  get found() {
    return msg('Found', { id: 'review.state.found' });
  },
  foundOn: (page: number) =>
    msg(str`Found on page ${formatNumber(page)}`, { id: 'review.state.found-on' }),
  get notFound() {
    return msg('Not found', { id: 'review.state.not-found' });
  },
  get edited() {
    return msg('Edited by you', { id: 'review.state.edited' });
  },
  editedFrom: (page: number) =>
    msg(str`Edited by you, from page ${formatNumber(page)}`, { id: 'review.state.edited-from' }),
  get review() {
    return msg('Needs review', { id: 'review.state.review' });
  },
  get lowConfidence() {
    return msg('We are not sure we read this right; compare it with the document.', {
      id: 'review.state.low-confidence',
    });
  },
  get showInDocument() {
    return msg('Show in document', { id: 'review.show-in-document' });
  },
  showInDocumentName: (field: string) =>
    msg(str`Show ${field} in the document`, { id: 'review.show-in-document-name' }),
  /** At the top of the fields. */
  reviewCount: (count: number) =>
    plural(
      count,
      {
        one: str`${formatNumber(count)} value needs review`,
        other: str`${formatNumber(count)} values need review`,
      },
      { id: 'review.count' },
    ),
  get allReviewed() {
    return msg('No value needs review', { id: 'review.all-reviewed' });
  },
};
