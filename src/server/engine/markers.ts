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

export const markerPattern = /\[(?:page )?image: [^\]\n]*\]/g;
