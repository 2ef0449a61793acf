/**
 * What a concept is: the words a schema uses for a field tied to the labels a document
 * prints next to its value (lexicon.ts lists them).
 */
export type ValueKind =
  | 'identifier'
  | 'date'
  | 'datetime'
  | 'amount'
  | 'number'
  | 'integer'
  | 'percent'
  | 'currency'
  | 'email'
  | 'iban'
  | 'bic'
  | 'url'
  | 'phone'
  | 'text'
  | 'boolean';

export interface Concept {
  id: string;
  kind: ValueKind;
  /** Words in a schema property's name or title that mean this concept; every word of one set must be there. */
  triggers: string[][];
  /** Labels with their weight (higher is more specific). */
  labels: [label: string, weight: number][];
  /** Only as a column of a table (line items), or only outside one. */
  scope?: 'item' | 'document';
  /**
   * A word of documents in general (vocabulary.ts), not of invoices: where a label is both,
   * the invoice's meaning stays.
   */
  general?: boolean;
  /**
   * A bare word that is this concept only in a header row or with a number sign after it
   * ("Invoice" above "VF1005193039", "INVOICE # 12").
   */
  bare?: string[];
}

export const w = (weight: number, ...labels: string[]): [string, number][] =>
  labels.map((label) => [label, weight]);
