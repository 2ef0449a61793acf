/** Finding and typing into the editor's fields, as a person would. */
import { userEvent } from 'vitest/browser';
import { $, $$ } from './mount.js';

/**
 * Types `text` over a control's value. Not `userEvent.fill`: it finds the control again by
 * a label it guesses ("Total"), which the highlight of Total on the page beside the fields
 * ("Total: found on page 1") matches too. An empty text clears the value.
 */
export async function typeInto(control: HTMLElement, text: string): Promise<void> {
  control.focus();
  (control as HTMLInputElement).select();
  await userEvent.keyboard(text === '' ? '{Backspace}' : text);
}

export function field(element: HTMLElement, label: string): HTMLElement {
  // The name without the mark of a field that must be filled in.
  const nameOf = (each: HTMLElement) =>
    [...each.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent)
      .join('')
      .trim();
  const labelElement = $$(element, 'label.field-label').find((each) => nameOf(each) === label);
  if (!labelElement) throw new Error(`no field labelled ${label}`);
  return $(element, `[id="${labelElement.getAttribute('for')}"]`);
}
