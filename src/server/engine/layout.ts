/**
 * Turns positioned pieces of text (a PDF's text items, OCR's words) into plain lines that
 * keep the page's layout, the way `pdftotext -layout` does: pieces on one visual line
 * share a line, and each piece starts near the column its position gives it. Keeping the
 * columns is what lets the local strategy read a value printed under its header
 * ("Invoice date" above "8-9-2022") and keeps table rows readable for a model.
 */

export interface PlacedText {
  text: string;
  /** Left edge, in page units growing rightwards. */
  x: number;
  /** Vertical centre, in page units growing downwards. */
  y: number;
  width: number;
  height: number;
  /**
   * Where the ink is, top and bottom, when it is not the height around the centre: a PDF's
   * text sits on its baseline, with the font's ascent above and its descent below.
   */
  top?: number;
  bottom?: number;
}

/** Where one piece landed in the laid-out text: text [start, end) is the piece's. */
export interface LaidOutPiece {
  piece: PlacedText;
  start: number;
  end: number;
}

/** Pieces whose centres are closer than this share of their height sit on one line. */
const sameLineShare = 0.5;
/** A gap narrower than this share of a character joins two pieces without a space. */
const joinShare = 0.25;
/**
 * A gap up to this many letters wide is a space between words; a wider one is a gap
 * between columns, and gets two or more spaces, the mark of a new cell.
 */
const wordGapShare = 1.5;
/** Wider pages than this (in characters) are squeezed so that lines stay readable. */
const maxColumns = 180;

export interface LayoutOptions {
  /** OCR words are whole words: never join two without a space, however close. */
  separateWords?: boolean;
}

export function layoutLines(pieces: readonly PlacedText[], options: LayoutOptions = {}): string {
  return layoutPage(pieces, options).text;
}

/**
 * The laid-out text and where each visible piece went in it, which is what turns an
 * offset in a page's text back into a place on the page (`boxesOfPieces`).
 */
export function layoutPage(
  pieces: readonly PlacedText[],
  options: LayoutOptions = {},
): { text: string; placed: LaidOutPiece[] } {
  const placed: LaidOutPiece[] = [];
  const visible = pieces.filter(
    (piece) => piece.text.trim() !== '' && Number.isFinite(piece.x + piece.y),
  );
  if (visible.length === 0) return { text: '', placed };
  const left = Math.min(...visible.map((piece) => piece.x));
  const right = Math.max(...visible.map((piece) => piece.x + piece.width));
  const charWidth = Math.max(medianCharWidth(visible), (right - left) / maxColumns);

  const sorted = [...visible].sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: { pieces: PlacedText[]; y: number; height: number }[] = [];
  for (const piece of sorted) {
    const line = lines[lines.length - 1];
    // Compared with the line so far, not with its first piece: a hyphen or a word with
    // descenders sits a little off the line's centre.
    if (line && Math.abs(line.y - piece.y) <= Math.max(piece.height, line.height) * sameLineShare) {
      line.pieces.push(piece);
      line.y += (piece.y - line.y) / line.pieces.length;
      line.height = Math.max(line.height, Math.min(piece.height, line.height * 2));
    } else {
      lines.push({ pieces: [piece], y: piece.y, height: piece.height });
    }
  }

  let page = '';
  for (const [index, { pieces: line }] of lines.entries()) {
    line.sort((a, b) => a.x - b.x);
    const lineStart = page.length + (index > 0 ? 1 : 0);
    const linePlaced: LaidOutPiece[] = [];
    let text = '';
    let end = left;
    let previous: PlacedText | undefined;
    for (const piece of line) {
      const column = Math.round((piece.x - left) / charWidth);
      const gap = piece.x - end;
      // Measured in this line's own letters: the gap between two words of a big heading
      // is wider than a small font's character, and is still one space.
      const ownWidth = Math.max(letterWidth(piece), letterWidth(previous ?? piece));
      if (text === '') text = ' '.repeat(Math.max(0, column));
      else if (options.separateWords || gap > ownWidth * joinShare) {
        text +=
          gap <= ownWidth * wordGapShare ? ' ' : ' '.repeat(Math.max(2, column - text.length));
      }
      const start = text.length;
      text += piece.text.replace(/\s+/g, ' ');
      linePlaced.push({ piece, start, end: text.length });
      end = Math.max(end, piece.x + piece.width);
      previous = piece;
    }
    text = text.trimEnd();
    for (const laid of linePlaced) {
      // The line's trailing spaces went; so does a piece's share of them.
      const pieceEnd = Math.min(laid.end, text.length);
      if (pieceEnd > laid.start)
        placed.push({
          piece: laid.piece,
          start: lineStart + laid.start,
          end: lineStart + pieceEnd,
        });
    }
    page += (index > 0 ? '\n' : '') + text;
  }
  return { text: page, placed };
}

function letterWidth(piece: PlacedText): number {
  const text = piece.text.trim();
  return text.length > 0 && piece.width > 0 ? piece.width / piece.text.length : piece.height * 0.5;
}

function medianCharWidth(pieces: readonly PlacedText[]): number {
  const widths = pieces
    .filter((piece) => piece.width > 0 && piece.text.length > 0)
    .map((piece) => piece.width / piece.text.length)
    .sort((a, b) => a - b);
  if (widths.length === 0) return Math.max(1, (pieces[0]?.height ?? 10) * 0.5);
  return Math.max(widths[Math.floor(widths.length / 2)]!, 0.01);
}
