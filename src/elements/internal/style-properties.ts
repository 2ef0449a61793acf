/**
 * Sets inline style properties through the CSSOM, always. Lit's `styleMap` writes a `style`
 * attribute on its first render, which a Content-Security-Policy without 'unsafe-inline'
 * (the hosted pages', and many partners') blocks; `element.style.setProperty` is allowed.
 *
 *   <div ${styleProperties({ width: '40%' })}></div>
 */
import { noChange } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

class StylePropertiesDirective extends Directive {
  #applied = new Set<string>();

  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.ELEMENT)
      throw new Error('styleProperties() belongs on an element, not in an attribute.');
  }

  render(_properties: Readonly<Record<string, string>>): typeof noChange {
    return noChange;
  }

  override update(
    part: ElementPart,
    [properties]: [Readonly<Record<string, string>>],
  ): typeof noChange {
    const { style } = part.element as HTMLElement;
    for (const name of this.#applied) if (!(name in properties)) style.removeProperty(name);
    for (const [name, value] of Object.entries(properties)) style.setProperty(name, value);
    this.#applied = new Set(Object.keys(properties));
    return noChange;
  }
}

export const styleProperties = directive(StylePropertiesDirective);
