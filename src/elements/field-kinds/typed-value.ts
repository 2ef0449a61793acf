/**
 * The value of a text box, set only when what is in the box means something else. A
 * person who types "7,25" into an amount in an English page, or "1.234,5" in a German one,
 * keeps seeing what they typed (the caret stays put) although the value it stands for,
 * 7.25 or 1234.5, is shown as "7.25" or "1234,5" when the field is drawn afresh.
 *
 *   <input ${typedValue(displayValue(value), (typed) => sameValue(typed, value))} />
 */
import { noChange } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

class TypedValueDirective extends Directive {
  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.ELEMENT)
      throw new Error('typedValue() belongs on an input element, not in an attribute.');
  }

  render(_text: string, _means: (typed: string) => boolean): typeof noChange {
    return noChange;
  }

  override update(
    part: ElementPart,
    [text, means]: [string, (typed: string) => boolean],
  ): typeof noChange {
    const input = part.element as HTMLInputElement;
    if (input.value !== text && !means(input.value)) input.value = text;
    return noChange;
  }
}

export const typedValue = directive(TypedValueDirective);
