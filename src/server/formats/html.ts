/**
 * The one HTML reader: HTML is parsed as browsers parse it (parse5, the WHATWG algorithm),
 * never with regular expressions, so markup, comments and character references mean what
 * they mean on a page. The service reads one shape of HTML, the `<dl>` it writes for a
 * single resource (`<dt>field</dt><dd>value</dd>`, `<dd data-null>` for null), so that
 * what it writes can be sent back.
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5';

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
