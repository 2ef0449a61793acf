/**
 * The values of a fillable PDF's form (AcroForm): what was typed into its text fields, the
 * choice of a list, whether each tick box is ticked and which radio button is chosen.
 * pdf.js's text layer leaves them out (they live in the widgets' values and appearances,
 * not in the page's content), so a filled form would read as a blank one.
 *
 * Each value becomes a piece of text at its widget's place, laid out with the page's
 * printed text by the same layout code (`../layout.ts`), so a caption beside a field
 * shares its line ("Name of individual  Jane Doe") and a caption above a field's box
 * stands over its value, as a person reads the form. The value's box is the widget's.
 *
 * Tick boxes and radio buttons read as marks: ☒ ticked, ☐ not ticked; ◉ the chosen radio
 * button, ○ the others. Export values ("Yes", "On", "Choice2", "0") are left out: they are
 * what the form's author named the state, rarely words a reader would see, while the
 * caption printed beside the box says what it means. A flattened form (values printed,
 * no fields left) has no widgets and reads as its printed text.
 */
import { boxesOfPieces } from '../geometry.js';
import type { LaidOutPiece, PlacedText } from '../layout.js';
import { DocumentLimitError } from '../limits.js';
import type { TextBox } from '../types.js';

export const tickedMark = '☒';
export const untickedMark = '☐';
export const chosenMark = '◉';
export const unchosenMark = '○';

/**
 * Widgets read on one page at most. A real form has tens to a few hundred fields on a
 * page (a tax return's busiest page about 300); beyond this a page is a generator's
 * accident or a probe, and its layout would cost more than the rest of the document.
 */
export const maxFormFieldsPerPage = 5000;

/** The part of a pdf.js widget annotation (`page.getAnnotations()`) that is read. */
interface WidgetAnnotation {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  exportValue?: string;
  buttonValue?: string;
  checkBox?: boolean;
  radioButton?: boolean;
  pushButton?: boolean;
  hidden?: boolean;
  annotationFlags?: number;
  rect?: number[];
  options?: { exportValue?: string; displayValue?: string }[];
  defaultAppearanceData?: { fontSize?: number };
}

interface PageViewport {
  scale: number;
  convertToViewportRectangle(rect: number[]): number[];
}

interface PdfPageWithAnnotations {
  getAnnotations(params?: { intent?: string }): Promise<unknown[]>;
}

/** The form's values on one page, as pieces to lay out, and the boxes they get once laid out. */
export interface PageFormFields {
  pieces: PlacedText[];
  /** The boxes of laid-out pieces, the form fields' being their widgets' (marked `form-fields`). */
  boxesOf(placed: readonly LaidOutPiece[], pageWidth: number, pageHeight: number): TextBox[];
}

// Annotation flags (ISO 32000-1, 12.5.3): hidden (bit 2) and no-view (bit 6) are not shown.
const hiddenFlags = 2 | 32;

export async function readFormFields(
  page: PdfPageWithAnnotations,
  viewport: PageViewport,
  where: string,
): Promise<PageFormFields> {
  const annotations = (await page.getAnnotations({ intent: 'display' })) as WidgetAnnotation[];
  const widgets = annotations.filter((annotation) => annotation.subtype === 'Widget');
  if (widgets.length > maxFormFieldsPerPage)
    throw new DocumentLimitError(
      `${where} has ${widgets.length.toLocaleString('en-US')} form fields; the limit is ${maxFormFieldsPerPage.toLocaleString('en-US')} form fields per page`,
    );
  const widgetBoxes = new Map<PlacedText, PlacedText>();
  for (const widget of widgets) {
    const text = widgetText(widget);
    if (text === undefined || !widget.rect || widget.rect.length !== 4) continue;
    if (widget.hidden || ((widget.annotationFlags ?? 0) & hiddenFlags) !== 0) continue;
    const [x1, y1, x2, y2] = viewport.convertToViewportRectangle(widget.rect);
    const left = Math.min(x1!, x2!);
    const top = Math.min(y1!, y2!);
    const width = Math.abs(x2! - x1!);
    const height = Math.abs(y2! - y1!);
    if (!(width > 0 && height > 0)) continue;
    // Laid out as the value would be printed in the box: at the font size the field asks
    // for (auto, 0, fills a line of the box), its letters about half as wide as high, so
    // that a short value in a wide box does not pass for a wide gap between columns.
    const fontSize = (widget.defaultAppearanceData?.fontSize ?? 0) * viewport.scale;
    const size = Math.min(height, fontSize > 0 ? fontSize : Math.min(height * 0.8, 12));
    const piece: PlacedText = {
      text,
      x: left + Math.min(2, width / 10),
      y: top + height / 2,
      width: Math.min(width, text.length * size * 0.5),
      height: size,
    };
    widgetBoxes.set(piece, { text, x: left, y: top + height / 2, width, height });
  }
  return {
    pieces: [...widgetBoxes.keys()],
    boxesOf(placed, pageWidth, pageHeight) {
      const fieldStarts = new Set<number>();
      const asShown = placed.map((laid) => {
        const widget = widgetBoxes.get(laid.piece);
        if (!widget) return laid;
        fieldStarts.add(laid.start);
        return { ...laid, piece: widget };
      });
      return boxesOfPieces(asShown, pageWidth, pageHeight).map((box) =>
        fieldStarts.has(box.start) ? { ...box, reader: 'form-fields' as const } : box,
      );
    },
  };
}

/** What a widget shows as text, or `undefined` when it shows nothing (an empty field, a button). */
function widgetText(widget: WidgetAnnotation): string | undefined {
  if (widget.fieldType === 'Btn') {
    if (widget.pushButton) return undefined;
    const value = typeof widget.fieldValue === 'string' ? widget.fieldValue : 'Off';
    if (widget.radioButton) return value === widget.buttonValue ? chosenMark : unchosenMark;
    if (widget.checkBox) {
      const on =
        value !== 'Off' && value !== '' && (!widget.exportValue || value === widget.exportValue);
      return on ? tickedMark : untickedMark;
    }
    return undefined;
  }
  if (widget.fieldType !== 'Tx' && widget.fieldType !== 'Ch') return undefined;
  const values = (Array.isArray(widget.fieldValue) ? widget.fieldValue : [widget.fieldValue])
    .filter((value): value is string => typeof value === 'string')
    // A list shows its choices' display names, which may differ from the values it stores.
    .map(
      (value) =>
        widget.options?.find((option) => option.exportValue === value)?.displayValue ?? value,
    );
  const text = values.join(', ').replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
}
