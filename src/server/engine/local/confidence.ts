/**
 * How sure a value is, 0 to 1, from its evidence (README.md, "Confidence", says what the
 * bands mean and how they were measured).
 */

/**
 * How sure a labelled value is: a specific label ("Invoice number") on the value's line is
 * surer than a bare word ("Number") or a value found under a header. See README.md.
 */
export function labelledConfidence(weight: number, distance: number): number {
  const specific = weight >= 8 ? 0.85 : weight >= 5 ? 0.75 : 0.65;
  return Math.max(0.55, specific - (distance > 0 ? 0.05 : 0));
}

/** A value read from a table row under its column header, or one of a list. */
export const tableConfidence = 0.75;
/** A labelled value that the document's own arithmetic confirms. */
export const crossChecked = 0.95;
/** A value no label names, found by its position or its pattern alone. */
export const guessed = 0.5;
/** A labelled figure that OCR damaged, read as the figure the arithmetic gives. */
export const repaired = 0.55;
/** A total no label names, guessed from the figures alone: for review. */
export const weakGuess = 0.4;
/** A contact detail known by its form and the field's words (an email, a named web address). */
export const contactConfidence = 0.7;
/** A value a document's heading holds (a CV's name, a title, an enum's value in it). */
export const headingConfidence = 0.6;
/** A value under the field's own words (its name, title or description), not a known label. */
export const ownLabelConfidence = 0.7;
/** A value a verified machine-readable zone or a barcode's public format states (codes.ts). */
export const codeConfidence = 0.95;
/** A name a code states that the page does not print in the same letters (accents lost). */
export const codeNameUnprinted = 0.65;
/** A value under the caption of the numbered box its field names (boxes.ts). */
export const boxConfidence = 0.8;
