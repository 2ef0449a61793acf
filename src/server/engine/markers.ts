/**
 * The markers that stand in the text for pictures (markEmbeddedImages, markPageImages).
 * They name the picture the way its `PageImage.label` does, so a model can tie what it
 * reads to what it sees; the local strategy blanks them out before it reads.
 */

export function embeddedImageMarker(label: string): string {
  return `[image: ${label}]`;
}

export function pageImageMarker(label: string): string {
  return `[page image: ${label}]`;
}

/** Starts the block of the page's text that a barcode or a machine-readable zone gave. */
export function codeMarker(label: string): string {
  return `[code: ${label}]`;
}

export const markerPattern = /\[(?:page image|image|code): [^\]\n]*\]/g;
