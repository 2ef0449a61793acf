/**
 * The blocks that barcodes and machine-readable zones add at the end of a page's text
 * (codes/page-codes.ts), read back into their `Label: value` parts for the rules (codes.ts).
 */
import { markerPattern } from '../markers.js';

export interface CodePart {
  /** The label as the block writes it ("Date of birth"). */
  label: string;
  value: string;
  /** Where the value stands in the chunk's text. */
  start: number;
  end: number;
  /** A machine-readable zone's part (verified by its check digits), else a barcode's. */
  zone: boolean;
  /** The code's block, from its marker to its last line. */
  block: { start: number; end: number };
}

/** A part line of a code's block: a label of words, a colon, the value. */
const partLine = /^(\p{Lu}[\p{L} ]{1,40}): (\S.*)$/u;

/**
 * The parts of every code block of `raw` (the chunk's text before its markers are blanked):
 * from a marker to the first empty line, the `Label: value` lines that end the block.
 */
export function readCodeParts(raw: string): CodePart[] {
  const parts: CodePart[] = [];
  for (const marker of raw.matchAll(markerPattern)) {
    if (!marker[0].startsWith('[code:')) continue;
    const zone = /machine-readable zone/i.test(marker[0]);
    const blockStart = marker.index + marker[0].length;
    const blank = raw.indexOf('\n\n', blockStart);
    const blockEnd = blank < 0 ? raw.length : blank;
    const lines: { text: string; start: number }[] = [];
    let offset = blockStart + 1;
    for (const text of raw.slice(blockStart + 1, blockEnd).split('\n')) {
      lines.push({ text, start: offset });
      offset += text.length + 1;
    }
    // The code's own text comes first; its parts are the matching lines at the end.
    const block: CodePart[] = [];
    for (let index = lines.length - 1; index >= 1; index--) {
      const line = lines[index]!;
      const match = partLine.exec(line.text);
      if (!match || markerPattern.test(line.text)) break;
      const start = line.start + match[1]!.length + 2;
      block.unshift({
        label: match[1]!,
        value: match[2]!.trim(),
        start,
        end: line.start + line.text.length,
        zone,
        block: { start: marker.index, end: blockEnd },
      });
    }
    parts.push(...block);
  }
  markerPattern.lastIndex = 0;
  return parts;
}
