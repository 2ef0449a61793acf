/**
 * The parts of the views that a page styles through `<extractor-app>`, as
 * `extractor-app::part(submit-button)`: the one list the app's `exportparts` is made from.
 * Each view documents its own parts in its JSDoc (`@csspart`), the app documents them all,
 * and src/tools/manifest/custom-elements-manifest.test.ts checks that those documents and this list
 * agree with the templates.
 */
export const viewParts = [
  'base',
  'header',
  'heading',
  'description',
  'actions',
  'button',
  'next-button',
  'back-button',
  'continue-button',
  'begin-button',
  'drop-zone',
  'choose-button',
  'file-list',
  'file',
  'remove-button',
  'retry-button',
  'dismiss-button',
  'progress',
  'error',
  'status',
  'partial-results',
  'documents',
  'document-list',
  'document',
  'outcome',
  'replace-button',
  'start-button',
  'pause-button',
  'resume-button',
  'cancel-button',
  'restart-button',
  'restart-warning',
  'keep-edits-button',
  'toolbar',
  'downloads',
  'download-button',
  'document-switcher',
  'document-tabs',
  'document-tab',
  'previous-document-button',
  'next-document-button',
  'document-panel',
  'form',
  'field',
  'field-error',
  'field-state',
  'show-source-button',
  'review-count',
  'review-toggle-button',
  'group',
  'list-item',
  'value-list',
  'add-item-button',
  'remove-item-button',
  'table',
  'filter-button',
  'table-scroller',
  'add-row-button',
  'remove-row-button',
  'submit-button',
  'nothing-found',
  'upload-another-button',
  'enter-by-hand-button',
  'empty-warning',
] as const;

export type ViewPart = (typeof viewParts)[number];

/** A view's part that the app passes on under another name, because it has one of its own. */
export const renamedViewParts: Partial<Record<ViewPart, string>> = {
  base: 'view-base',
  status: 'run-status',
};

/** The views' parts as `<extractor-app>` exports them (the `exportparts` attribute). */
export const exportedViewParts = viewParts
  .map((name) => (renamedViewParts[name] ? `${name}: ${renamedViewParts[name]}` : name))
  .join(', ');
