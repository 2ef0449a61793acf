/**
 * The record editor's looks: the form's fields, its controls, groups and lists, the values'
 * states in the review beside the document, and the tables. The width of a table's column
 * is its field kind's (field-kinds/), added to these.
 */
import { css } from 'lit';
import { columnStyles } from '../field-kinds/index.js';

const editorStyles = css`
  /* A value's state: found, not found, edited by you, needs review; in words, with a badge. */
  .field-state {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    align-content: flex-start;
    gap: 0.25rem 0.5rem;
    font-size: 0.8125rem;
  }

  /* Its words are the control's description (by id); laid out with the button beside the
     badge and the reason for review on a line of its own under them. */
  .field-state-text {
    display: contents;
  }

  .field-state .review-messages {
    flex-basis: 100%;
    order: 2;
  }

  .field-state .badge,
  .review-count .badge,
  .cell-review .badge {
    padding: 0 0.5rem;
    font-size: 0.75rem;
  }

  .badge-found::before {
    background: var(--_extractor-success);
  }

  .badge-not-found {
    color: var(--_extractor-muted);
  }

  .badge-edited {
    background: color-mix(in srgb, var(--_extractor-accent) 12%, transparent);
  }

  .badge-edited::before {
    background: var(--_extractor-accent);
  }

  .badge-review {
    background: rgb(232 161 0 / 18%);
  }

  .badge-review::before {
    background: #e8a100;
  }

  .review-messages,
  .cell-review {
    color: var(--_extractor-text);
    font-size: 0.8125rem;
  }

  .cell-review {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem;
    margin-top: 0.25rem;
  }

  /* A link-like button beside the badge: where the value is, one press away. */
  .field-state .show-source {
    min-height: 1.5rem;
    padding: 0 0.25rem;
    border: 0;
    background: none;
    color: var(--_extractor-accent);
    font-size: 0.8125rem;
    font-weight: 500;
    text-decoration: underline;
    text-underline-offset: 0.15em;
  }

  .fields {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: var(--_extractor-space) calc(var(--_extractor-space) * 1.25);
  }

  @container (min-width: 36rem) {
    .fields {
      grid-template-columns: repeat(2, minmax(0, 1fr));
    }
  }

  /* Each field spans five rows of the form's grid (label, description, control, message,
     its state beside the document)
     and lays its parts on them, so the controls of a row line up however long a
     description is, and a message under one control does not push its neighbour down. */
  .field {
    display: grid;
    grid-row: span 5;
    grid-template-rows: subgrid;
    row-gap: 0;
    align-content: start;
    min-width: 0;
  }

  .field > .field-label {
    grid-row: 1;
  }

  .field > .field-description {
    grid-row: 2;
    margin-top: 0.25rem;
  }

  .field > .control,
  .field > .yes-no {
    grid-row: 3;
    margin-top: 0.375rem;
  }

  .field > .field-error {
    grid-row: 4;
    margin-top: 0.375rem;
  }

  .field > .field-state {
    grid-row: 5;
    margin-top: 0.375rem;
  }

  .field-label {
    font-size: 0.9375rem;
    font-weight: 600;
  }

  .required-mark {
    margin-inline-start: 0.25em;
    color: var(--_extractor-danger);
    font-weight: 600;
  }

  .form-note {
    margin: 0;
    color: var(--_extractor-muted);
    font-size: 0.875rem;
  }

  .field-description {
    margin: 0;
    color: var(--_extractor-muted);
    font-size: 0.8125rem;
    line-height: 1.4;
  }

  .field-error {
    margin: 0;
    color: var(--_extractor-danger);
    font-size: 0.8125rem;
    font-weight: 500;
    line-height: 1.4;
  }

  .control {
    width: 100%;
    min-height: 2.75rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius);
    background: var(--_extractor-surface);
    color: var(--_extractor-text);
    font: inherit;
    line-height: 1.4;
  }

  .control.numeric {
    font-variant-numeric: tabular-nums;
  }

  .control:hover:not(:disabled, [readonly]) {
    border-color: color-mix(in srgb, var(--_extractor-text) 35%, var(--_extractor-border));
  }

  .control:focus-visible {
    outline: 2px solid var(--_extractor-focus);
    outline-offset: 0;
    border-color: var(--_extractor-focus);
  }

  .control[aria-invalid='true'] {
    border-color: var(--_extractor-danger);
    box-shadow: inset 3px 0 0 var(--_extractor-danger);
  }

  .control[readonly],
  .control:disabled {
    background: var(--_extractor-subtle);
    opacity: 1;
  }

  select.control {
    appearance: auto;
  }

  /* Yes and No side by side, each a generous target, as one segmented control. */
  .yes-no {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }

  .yes-no-option {
    display: inline-flex;
    align-items: center;
    gap: 0.5rem;
    min-height: 2.75rem;
    padding: 0.25rem 0.875rem 0.25rem 0.625rem;
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius);
    background: var(--_extractor-surface);
    cursor: pointer;
  }

  .yes-no-option:has(:checked) {
    border-color: var(--_extractor-accent);
    background: var(--_extractor-accent-soft);
  }

  .yes-no-option:has(:focus-visible) {
    outline: 2px solid var(--_extractor-focus);
    outline-offset: 2px;
  }

  .yes-no-option:has([aria-invalid='true']) {
    border-color: var(--_extractor-danger);
  }

  .radio {
    width: 1.125rem;
    height: 1.125rem;
    margin: 0;
    accent-color: var(--_extractor-accent);
  }

  .radio:focus-visible {
    outline: none;
  }

  .group {
    display: grid;
    gap: 0.875rem;
    padding-top: var(--_extractor-space);
    border-top: 1px solid var(--_extractor-border);
  }

  .group .group {
    padding: var(--_extractor-space);
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius-container);
  }

  .group-head {
    display: grid;
    gap: 0.25rem;
  }

  .group-title {
    display: flex;
    align-items: baseline;
    gap: 0.625rem;
    font-size: 1.0625rem;
    font-weight: 650;
  }

  .count {
    color: var(--_extractor-muted);
    font-size: 0.875rem;
    font-weight: 400;
    font-variant-numeric: tabular-nums;
  }

  .value-list {
    display: grid;
    gap: 0.5rem;
    margin: 0;
    padding: 0;
    list-style: none;
  }

  .value-row {
    display: flex;
    align-items: center;
    gap: 0.5rem;
  }

  .item-card {
    display: grid;
    gap: 0.75rem;
    padding: var(--_extractor-space);
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius-container);
    background: var(--_extractor-surface);
  }

  .item-card-head {
    display: flex;
    align-items: center;
    justify-content: space-between;
    font-weight: 600;
  }

  .icon-button {
    flex: none;
    width: 2.25rem;
    padding: 0;
  }

  /* Tables: cells are inputs without their own borders, so the grid reads as one. */
  .table-scroller {
    --_extractor-scroll-shadow: color-mix(in srgb, var(--_extractor-text) 22%, transparent);
    overflow: auto;
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius-container);
    /* A shadow at an edge with more columns behind it, so a table wider than a phone shows
       that it scrolls: the covers scroll with the content ('local') and hide the shadows
       (fixed to the box) once an end is reached. */
    background:
      linear-gradient(to right, var(--_extractor-surface) 40%, transparent) left / 2.5rem 100%
        no-repeat local,
      linear-gradient(to left, var(--_extractor-surface) 40%, transparent) right / 2.5rem 100%
        no-repeat local,
      radial-gradient(farthest-side at 0 50%, var(--_extractor-scroll-shadow), transparent) left /
        0.75rem 100% no-repeat scroll,
      radial-gradient(farthest-side at 100% 50%, var(--_extractor-scroll-shadow), transparent)
        right / 0.75rem 100% no-repeat scroll,
      var(--_extractor-surface);
    overscroll-behavior: contain;
  }

  .table-scroller.windowed {
    /* The hosted iFrame page sets the cap to a fixed length: a frame that is as tall as its
       content would otherwise grow with 70vh, which grows with the frame. */
    max-height: var(--_extractor-table-max-height, min(28rem, 70vh));
  }

  .records {
    width: 100%;
    border-collapse: separate;
    border-spacing: 0;
    font-size: 0.9375rem;
  }

  .records thead th {
    position: sticky;
    top: 0;
    z-index: 1;
    padding: 0.5rem 0.625rem;
    border-bottom: 1px solid var(--_extractor-border);
    background: var(--_extractor-subtle);
    color: var(--_extractor-muted);
    font-size: 0.8125rem;
    font-weight: 600;
    text-align: start;
    white-space: nowrap;
  }

  .records td,
  .records tbody th {
    height: 2.75rem;
    padding: 0;
    border-bottom: 1px solid var(--_extractor-border);
  }

  .records tbody tr:last-child > * {
    border-bottom: none;
  }

  .records td + td {
    border-inline-start: 1px solid color-mix(in srgb, var(--_extractor-border) 60%, transparent);
  }

  .records .row-number {
    width: 3rem;
    padding: 0 0.625rem;
    color: var(--_extractor-muted);
    font-size: 0.8125rem;
    font-weight: 400;
    font-variant-numeric: tabular-nums;
    text-align: end;
  }

  .records .row-actions {
    width: 2.75rem;
    padding: 0 0.25rem;
    text-align: center;
  }

  /* Amounts line up on their last digit, as in a ledger (their columns' headers too). */
  .records .control[inputmode='decimal'],
  .records .control[inputmode='numeric'] {
    text-align: end;
    font-variant-numeric: tabular-nums;
  }

  .records .control {
    width: 100%;
    min-width: 0;
    min-height: 2.75rem;
    height: 100%;
    padding: 0.375rem 0.625rem;
    border: 0;
    border-radius: 0;
    background: transparent;
  }

  .records .control:focus-visible {
    outline: 2px solid var(--_extractor-focus);
    outline-offset: -2px;
  }

  .records td.invalid {
    background: var(--_extractor-danger-soft);
  }

  .records td.invalid .control[aria-invalid='true'] {
    box-shadow: inset 3px 0 0 var(--_extractor-danger);
  }

  /* A value to review: marked in amber, as an invalid one is in red; its words are the
     cell's description, and its field above (the total) says them. */
  .records td.needs-review:not(.invalid) {
    background: rgb(232 161 0 / 12%);
  }

  .records td.needs-review:not(.invalid) .control {
    box-shadow: inset 3px 0 0 #e8a100;
  }

  /* A cell has focus while the grid is navigated; its control while it is edited. */
  .records [role='gridcell'] {
    position: relative;
  }

  .records [role='gridcell']:focus {
    outline: none;
  }

  .records [role='gridcell']:focus-visible {
    outline: 2px solid var(--_extractor-focus);
    outline-offset: -2px;
  }

  .records [role='gridcell']:focus-visible .control {
    background: var(--_extractor-accent-soft);
  }

  .records .spacer td {
    padding: 0;
    border: 0;
  }

  /* In a table the column header names a value and the list under it says what is wrong;
     in a card (below) the cell shows both itself. */
  .records .cell-label {
    display: none;
  }

  .records .cell-error,
  .records .cell-review,
  .records .row-label {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }

  .grid-hint {
    margin: 0;
    color: var(--_extractor-muted);
    font-size: 0.8125rem;
  }

  .table-tools {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem 1rem;
  }

  .table-problem-count {
    margin: 0;
    color: var(--_extractor-danger);
    font-size: 0.875rem;
    font-weight: 600;
  }

  .button[aria-pressed='true'] {
    border-color: var(--_extractor-accent);
    background: var(--_extractor-accent-soft);
  }

  .table-problems {
    display: grid;
    gap: 0.25rem;
    margin: 0;
    padding: 0;
    list-style: none;
    color: var(--_extractor-danger);
    font-size: 0.8125rem;
  }

  .problem-place {
    font-weight: 600;
  }

  /* Narrower than 600 px: each row is a card of labelled values, one under another, with
     its number and remove button on top; nothing is wider than the element. */
  @container (max-width: 37.5rem) {
    .table-scroller {
      overflow-x: hidden;
      border: 0;
      border-radius: 0;
      background: none;
    }

    .records,
    .records tbody,
    .records tbody tr,
    .records tbody td,
    .records tbody th {
      display: block;
    }

    .records thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
    }

    .records tr.row {
      display: grid;
      grid-template-columns: minmax(0, 1fr) auto;
      align-items: center;
      gap: 0.5rem 0.75rem;
      margin-bottom: 0.75rem;
      padding: 0.5rem 0.75rem 0.875rem;
      border: 1px solid var(--_extractor-border);
      border-radius: var(--_extractor-radius-container);
      background: var(--_extractor-surface);
    }

    .records tbody tr.row > * {
      height: auto;
      border: 0;
    }

    .records tbody .row-number {
      width: auto;
      padding: 0;
      color: var(--_extractor-text);
      font-size: 0.875rem;
      font-weight: 600;
      text-align: start;
    }

    /* Shown in a card: the row's "Row", what is wrong with a value, and why to review it. */
    .records .row-label,
    .records .cell-error,
    .records .cell-review {
      position: static;
      width: auto;
      height: auto;
      margin: 0;
      overflow: visible;
      clip-path: none;
    }

    .records td.row-actions {
      grid-row: 1;
      grid-column: 2;
      width: auto;
      padding: 0;
    }

    /* Each card says what is wrong in it; the count and the filter above lead to them. */
    .table-problems {
      display: none;
    }

    .records td.cell {
      display: grid;
      grid-column: 1 / -1;
      gap: 0.25rem;
      padding: 0;
      border-inline-start: 0;
    }

    .records td.invalid,
    .records td.needs-review:not(.invalid) {
      background: none;
    }

    .records .cell-label {
      display: block;
      color: var(--_extractor-muted);
      font-size: 0.8125rem;
      font-weight: 600;
    }

    .records .control {
      border: 1px solid var(--_extractor-border);
      border-radius: var(--_extractor-radius);
      background: var(--_extractor-surface);
    }

    .records .control[inputmode='decimal'],
    .records .control[inputmode='numeric'] {
      text-align: start;
    }

    .records td.invalid .control[aria-invalid='true'] {
      border-color: var(--_extractor-danger);
    }

    .records .cell-error {
      color: var(--_extractor-danger);
      font-size: 0.8125rem;
      font-weight: 500;
      white-space: normal;
    }

    .records .cell-review {
      white-space: normal;
    }

    .records [role='gridcell']:focus-visible {
      outline-offset: 2px;
    }

    .grid-hint {
      display: none;
    }
  }

  @media (forced-colors: active) {
    .control,
    .table-scroller {
      border: 1px solid CanvasText;
    }
    .control[aria-invalid='true'] {
      border: 2px solid Mark;
    }
    .records td.invalid {
      outline: 2px solid Mark;
      outline-offset: -2px;
    }
  }
`;

export const recordEditorStyles = [editorStyles, ...columnStyles];
