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

/** A text token and the background tokens it is drawn on, as `--_extractor-*` names. */
const pairs: [text: string, backgrounds: string[]][] = [
  ['text', ['surface', 'subtle', 'background']],
  ['muted', ['surface', 'subtle', 'background']],
  ['danger', ['surface', 'subtle', 'background']],
  ['on-accent', ['accent']],
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
 * The colour nearest to `text`, on the way to black or to white, that has at least 4.5:1
 * against every background; `undefined` when `text` already has. When no colour can (a
 * white and a black background), the one with the best worst contrast.
 */
export function readableColor(text: Rgba, backgrounds: Rgba[]): Rgba | undefined {
  if (worstContrast(text, backgrounds) >= minimumContrast) return undefined;
  let best: { color: Rgba; amount: number; contrast: number } | undefined;
  for (const toward of [black, white]) {
    let low = 0;
    let high = 1;
    if (worstContrast(mix(text, toward, 1), backgrounds) < minimumContrast) {
      const color = mix(text, toward, 1);
      const contrast = worstContrast(color, backgrounds);
      if (!best || (best.contrast < minimumContrast && contrast > best.contrast))
        best = { color, amount: 2, contrast };
      continue;
    }
    for (let step = 0; step < 12; step++) {
      const middle = (low + high) / 2;
      if (worstContrast(mix(text, toward, middle), backgrounds) >= minimumContrast) high = middle;
      else low = middle;
    }
    const color = mix(text, toward, high);
    const contrast = worstContrast(color, backgrounds);
    if (!best || best.contrast < minimumContrast || high < best.amount)
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
    for (const [text, under] of pairs) {
      const color = over(colorOf(text), backgrounds[under[0]!]!);
      const fixed = readableColor(
        color,
        under.map((name) => backgrounds[name]!),
      );
      if (fixed) fixes[`--extractor-${publicNames[text]!}`] = `rgb(${fixed.slice(0, 3).join(' ')})`;
    }
    return fixes;
  } finally {
    probe.remove();
  }
}
