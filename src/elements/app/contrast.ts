/**
 * Keeps text readable whatever a theme says. A partner's theme can set any colour as any
 * token (and a page can set the tokens in its own CSS), in either colour scheme; a theme
 * that pins light surfaces and leaves the text at its default, say, would put light text
 * on white once the scheme is dark. Rather than refuse such themes, which a server cannot
 * judge without knowing the page and the scheme they will meet, the element measures the
 * colours as the browser resolves them, here and now, and where a text colour has less
 * than 4.5:1 against a background it is drawn on (WCAG 2 AA for text), it darkens or
 * lightens that text colour just enough. Backgrounds and the accent keep the partner's
 * colours; only text moves.
 */

/**
 * A text token, the background tokens it is drawn on (as `--_extractor-*` names), and the
 * contrast a fix aims for. Main text that needs fixing goes to 7:1 (WCAG AAA): fixed only
 * to 4.5:1 it would be as grey as the secondary text beside it.
 */
const pairs: [text: string, backgrounds: string[], target: number][] = [
  ['text', ['surface', 'subtle', 'background'], 7],
  ['muted', ['surface', 'subtle', 'background'], 4.5],
  ['danger', ['surface', 'subtle', 'background'], 4.5],
  ['on-accent', ['accent'], 4.5],
];

/** The public token each private colour is read from, without `--extractor-`. */
const publicNames: Record<string, string> = {
  text: 'color-text',
  muted: 'color-text-muted',
  danger: 'color-danger',
  'on-accent': 'color-on-accent',
};

export const minimumContrast = 4.5;

type Rgba = [number, number, number, number];

function channel(value: number): number {
  const v = value / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

function luminance([r, g, b]: Rgba): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG 2 contrast ratio of two opaque colours. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `top` laid over an opaque `bottom`. */
function over(top: Rgba, bottom: Rgba): Rgba {
  const alpha = top[3];
  return [0, 1, 2].map((i) => top[i]! * alpha + bottom[i]! * (1 - alpha)).concat(1) as Rgba;
}

function mix(from: Rgba, to: Rgba, amount: number): Rgba {
  return [0, 1, 2]
    .map((i) => Math.round(from[i]! + (to[i]! - from[i]!) * amount))
    .concat(1) as Rgba;
}

const black: Rgba = [0, 0, 0, 1];
const white: Rgba = [255, 255, 255, 1];

function worstContrast(text: Rgba, backgrounds: Rgba[]): number {
  return Math.min(...backgrounds.map((background) => contrastRatio(text, background)));
}

/**
 * `undefined` when `text` has at least 4.5:1 against every background; else the colour
 * nearest to it, on the way to black or to white, that has `target` (at least 4.5:1). When
 * no colour can (a white and a black background), the one with the best worst contrast.
 */
export function readableColor(
  text: Rgba,
  backgrounds: Rgba[],
  target = minimumContrast,
): Rgba | undefined {
  if (worstContrast(text, backgrounds) >= minimumContrast) return undefined;
  const goal = Math.max(target, minimumContrast);
  let best: { color: Rgba; amount: number; contrast: number } | undefined;
  for (const toward of [black, white]) {
    let low = 0;
    let high = 1;
    if (worstContrast(mix(text, toward, 1), backgrounds) < goal) {
      // The goal is out of reach this way: as far as it goes, if that beats the other way.
      const color = mix(text, toward, 1);
      const contrast = worstContrast(color, backgrounds);
      if (!best || (best.contrast < goal && contrast > best.contrast))
        best = { color, amount: 2, contrast };
      continue;
    }
    for (let step = 0; step < 12; step++) {
      const middle = (low + high) / 2;
      if (worstContrast(mix(text, toward, middle), backgrounds) >= goal) high = middle;
      else low = middle;
    }
    const color = mix(text, toward, high);
    const contrast = worstContrast(color, backgrounds);
    if (!best || best.contrast < goal || high < best.amount)
      best = { color, amount: high, contrast };
  }
  return best?.color;
}

/** Reads any CSS colour the browser has resolved as RGBA, by painting it on a canvas. */
function reader(): (color: string) => Rgba {
  const context = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })!;
  return (color) => {
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!, a! / 255];
  };
}

/** What shows behind the element: the first ancestor with a background, else the canvas. */
function pageBackground(host: Element, read: (color: string) => Rgba, dark: boolean): Rgba {
  let node: Element | null = host.parentElement ?? (host.getRootNode() as ShadowRoot).host ?? null;
  while (node) {
    const color = read(getComputedStyle(node).backgroundColor);
    if (color[3] > 0) return color[3] < 1 ? over(color, dark ? darkCanvas : white) : color;
    node =
      node.parentElement ??
      ((node.getRootNode() as ShadowRoot).host as Element | undefined) ??
      null;
  }
  // Nothing painted: the page's canvas, which the browser paints dark in a dark scheme (or
  // a frame whose scheme differs from its host page's gets one of its own).
  return dark ? darkCanvas : white;
}

/** Chromium's and Firefox's canvas in a dark scheme. */
const darkCanvas: Rgba = [18, 18, 18, 1];

/**
 * The text tokens to set, as `--extractor-*` name and value, so that each text colour has
 * 4.5:1 against its backgrounds as drawn inside `probeParent` (a node in the element's
 * shadow root, which the element's styles reach). Empty when all are readable.
 */
export function contrastFixes(host: Element, probeParent: Node): Record<string, string> {
  const read = reader();
  const probe = document.createElement('span');
  probeParent.appendChild(probe);
  try {
    const colorOf = (value: string) => {
      probe.style.color = value.startsWith('light-dark') ? value : `var(--_extractor-${value})`;
      return read(getComputedStyle(probe).color);
    };
    // The scheme in use here, as light-dark() picks it.
    const dark = colorOf('light-dark(#000, #fff)')[0] > 0;
    const page = pageBackground(host, read, dark);
    const background = over(colorOf('background'), page);
    const backgrounds: Record<string, Rgba> = {
      background,
      surface: over(colorOf('surface'), background),
      subtle: over(colorOf('subtle'), background),
    };
    backgrounds.accent = over(colorOf('accent'), backgrounds.surface!);
    const fixes: Record<string, string> = {};
    for (const [text, under, target] of pairs) {
      const color = over(colorOf(text), backgrounds[under[0]!]!);
      const fixed = readableColor(
        color,
        under.map((name) => backgrounds[name]!),
        target,
      );
      if (fixed) fixes[`--extractor-${publicNames[text]!}`] = `rgb(${fixed.slice(0, 3).join(' ')})`;
    }
    return fixes;
  } finally {
    probe.remove();
  }
}
