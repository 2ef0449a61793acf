/**
 * Watches what the page around an element may change its colours with: an ancestor's class,
 * style or data attribute (across shadow roots), and the page's color-scheme meta. The
 * hosted full page turns dark only once the session is loaded; a partner's page may switch
 * its own theme at any time. The element then measures its text colours again.
 */
export function watchHostColors(host: Element, changed: () => void): MutationObserver {
  const observer = new MutationObserver(changed);
  const above = (node: Node) => node.parentNode ?? (node as ShadowRoot).host ?? null;
  for (let node = above(host); node; node = above(node))
    if (node instanceof Element) observer.observe(node, { attributes: true });
  const meta = document.querySelector('meta[name="color-scheme"]');
  if (meta) observer.observe(meta, { attributes: true });
  return observer;
}
