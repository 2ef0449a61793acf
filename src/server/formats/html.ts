/**
 * The one HTML reader: HTML is read as browsers read it (parse5, the WHATWG algorithm),
 * never with regular expressions, so markup, comments and character references mean what
 * they mean on a page. Request bodies: the service reads one shape of HTML, the `<dl>` it
 * writes for a single resource (`<dt>field</dt><dd>value</dd>`, `<dd data-null>` for
 * null), so that what it writes can be sent back. Documents: `scanHtml` gives the tags and
 * text of an HTML file of any size to the engine (engine/formats/text-formats.ts).
 */
import { parse, Tokenizer, TokenizerMode, type DefaultTreeAdapterMap, type Token } from 'parse5';

type TagToken = Token.TagToken;
type CharacterToken = Token.CharacterToken;

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const isElement = (node: Node): node is Element => 'tagName' in node;

/**
 * Every node under `root`, in document order. Walked with a stack of its own, not by
 * recursion: a hostile body nests a hundred thousand elements deep, and a recursive walk
 * would run out of stack.
 */
function* descendants(root: Node): Generator<Node> {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    const children =
      node.nodeName === 'template'
        ? [(node as DefaultTreeAdapterMap['template']).content]
        : 'childNodes' in node
          ? node.childNodes
          : [];
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
  }
}

/** The text of a node as a reader sees it: every text inside, markup left out. */
function textOf(node: Node): string {
  let text = '';
  for (const inner of descendants(node))
    if (inner.nodeName === '#text') text += (inner as DefaultTreeAdapterMap['textNode']).value;
  return text;
}

/**
 * The `<dt>`/`<dd>` pairs of `html`, each name (trimmed) with its value, or null for a
 * `<dd data-null>`; `undefined` when there is no pair at all.
 */
export function readDefinitions(html: string): Record<string, string | null> | undefined {
  const record: Record<string, string | null> = {};
  let found = false;
  for (const node of descendants(parse(html))) {
    if (!('childNodes' in node)) continue;
    // A term pairs with the element right after it among its siblings, if that is a <dd>.
    let term: Element | undefined;
    for (const child of node.childNodes) {
      if (!isElement(child)) continue;
      if (term && child.tagName === 'dd') {
        found = true;
        const isNull = child.attrs.some((attribute) => attribute.name === 'data-null');
        record[textOf(term).trim()] = isNull ? null : textOf(child);
      }
      term = child.tagName === 'dt' ? child : undefined;
    }
  }
  return found ? record : undefined;
}

// ---------------------------------------------------------------------------------------
// Scanning: the tags and text of a document of any size, in one pass

export interface HtmlScanHandlers {
  onOpenTag(name: string, attributes: Record<string, string>): void;
  onCloseTag(name: string): void;
  onText(text: string): void;
}

/** Elements that never have content: opened and closed at once. */
const voidElements = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Whose text is not markup (WHATWG, "parsing HTML fragments"). */
const textStates: Record<string, (typeof TokenizerMode)[keyof typeof TokenizerMode]> = {
  title: TokenizerMode.RCDATA,
  textarea: TokenizerMode.RCDATA,
  style: TokenizerMode.RAWTEXT,
  xmp: TokenizerMode.RAWTEXT,
  iframe: TokenizerMode.RAWTEXT,
  noembed: TokenizerMode.RAWTEXT,
  noframes: TokenizerMode.RAWTEXT,
  script: TokenizerMode.SCRIPT_DATA,
  plaintext: TokenizerMode.PLAINTEXT,
};

/** The start tags that end an open `<p>` (WHATWG, "in body" insertion mode). */
const paragraphClosers = (
  'address article aside blockquote div dl fieldset footer form h1 h2 h3 h4 h5 h6 header ' +
  'hr main nav ol p pre section table ul'
).split(' ');

/**
 * The open elements a start tag ends when one of them is the innermost (the common cases
 * of the WHATWG's implied end tags): `<li>` after `<li>`, a cell after a cell, a block
 * after a paragraph, `<body>` after `<head>`.
 */
const impliedEnds = new Map<string, Set<string>>([
  ['li', new Set(['li'])],
  ['dt', new Set(['dt', 'dd'])],
  ['dd', new Set(['dt', 'dd'])],
  ['td', new Set(['td', 'th'])],
  ['th', new Set(['td', 'th'])],
  ['tr', new Set(['tr', 'td', 'th'])],
  ['tbody', new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'])],
  ['tfoot', new Set(['thead', 'tbody', 'tr', 'td', 'th'])],
  ['option', new Set(['option'])],
  ['body', new Set(['head'])],
  ...paragraphClosers.map((name): [string, Set<string>] => [name, new Set(['p'])]),
]);

/**
 * Scans `html` with parse5's tokenizer (the WHATWG tokenizer: character references,
 * comments, raw text of scripts and styles as a browser reads them) and a stack of open
 * elements of its own, which ends elements as a browser would in the common cases (an end
 * tag ends the elements inside it, a start tag its implied ends, the end of the input
 * everything). Unlike a full tree builder it keeps no document, so a file of any size is
 * read in one pass and little memory; and every step costs at most what was pushed before
 * it, so a hostile file (a hundred thousand unclosed elements, end tags of elements never
 * opened) stays linear.
 */
export function scanHtml(html: string, handlers: HtmlScanHandlers): void {
  const open: string[] = [];
  /** How many elements of each name are open: an end tag of none is ignored at once. */
  const openCount = new Map<string, number>();
  const push = (name: string) => {
    open.push(name);
    openCount.set(name, (openCount.get(name) ?? 0) + 1);
  };
  const pop = () => {
    const name = open.pop()!;
    openCount.set(name, openCount.get(name)! - 1);
    handlers.onCloseTag(name);
  };
  const text = (token: CharacterToken) => handlers.onText(token.chars);
  const tokenizer: Tokenizer = new Tokenizer(
    {},
    {
      onStartTag(token: TagToken) {
        const name = token.tagName;
        const ends = impliedEnds.get(name);
        while (ends && open.length > 0 && ends.has(open.at(-1)!)) pop();
        const attributes: Record<string, string> = {};
        for (const { name: attribute, value } of token.attrs) attributes[attribute] ??= value;
        handlers.onOpenTag(name, attributes);
        if (voidElements.has(name) || token.selfClosing) {
          handlers.onCloseTag(name);
          return;
        }
        push(name);
        const state = textStates[name];
        if (state !== undefined) tokenizer.state = state;
      },
      onEndTag(token: TagToken) {
        const name = token.tagName;
        if (!openCount.get(name)) return;
        while (open.at(-1) !== name) pop();
        pop();
      },
      onCharacter: text,
      onWhitespaceCharacter: text,
      // U+0000 is shown as nothing.
      onNullCharacter() {},
      onComment() {},
      onDoctype() {},
      onEof() {
        while (open.length > 0) pop();
      },
    },
  );
  tokenizer.write(html, true);
}
