/**
 * A failed check's sentence in the person's language, for a check without a `message` of
 * its own: the results editor evaluates the checks on every edit (review-state.ts) and words
 * them with this, where the service words the ones it stores in English. One whole sentence
 * per comparison, so that each language orders its words as it must.
 */
import { msg, str } from '@lit/localize';
import type { CheckOperator, FailureWording } from '../../contract/checks.js';
import { formatDate } from '../../locales/format.js';
import { numberFormat } from '../../locales/numbers.js';
import { summarizeValue } from '../internal/field-names.js';

function value(value: number | string | boolean): string {
  // Six decimals at most, as the service's: a sum of cents may be a binary hair off.
  if (typeof value === 'number') return numberFormat({ maximumFractionDigits: 6 }).format(value);
  if (typeof value === 'boolean') return summarizeValue(value);
  // A date as the locale writes it; a date-time (and any other text) as it was written.
  const date = formatDate(value);
  return date !== value ? date : msg(str`"${value}"`, { id: 'check.quoted' });
}

export const checkWording: FailureWording = {
  get root() {
    return msg('the results', { id: 'check.root' });
  },
  sumOf: (name) => msg(str`the sum of ${name}`, { id: 'check.sum-of' }),
  value,
  operand: (name, shown) => msg(str`${name} (${shown})`, { id: 'check.operand' }),
  sentence(op, kind, left, right, tolerance) {
    // "the sum of …" and a field named by its property start a sentence with a capital.
    const sentence = wordSentence(op, kind, left, right, tolerance);
    return sentence.charAt(0).toUpperCase() + sentence.slice(1);
  },
};

function wordSentence(
  op: CheckOperator,
  kind: 'value' | 'date',
  left: string,
  right: string,
  tolerance: number | undefined,
): string {
  if (tolerance !== undefined) {
    // Days in the locale's own words and plural ("2 Tage", "يومان"), from Intl.
    const within =
      kind === 'date'
        ? numberFormat({
            style: 'unit',
            unit: 'day',
            unitDisplay: 'long',
            maximumFractionDigits: 6,
          }).format(tolerance)
        : value(tolerance);
    if (op === '=')
      return kind === 'date'
        ? msg(str`${left} should be ${right}, within ${within}.`, { id: 'check.date-equal-within' })
        : msg(str`${left} should equal ${right}, within ${within}.`, { id: 'check.equal-within' });
    return msg(str`${left} should differ from ${right}, within ${within}.`, {
      id: 'check.differ-within',
    });
  }
  // Dates differ in the words other values do.
  if (op === '!=') return msg(str`${left} should differ from ${right}.`, { id: 'check.differ' });
  if (kind === 'date') {
    if (op === '=') return msg(str`${left} should be ${right}.`, { id: 'check.date-equal' });
    if (op === '<') return msg(str`${left} should be before ${right}.`, { id: 'check.before' });
    if (op === '<=')
      return msg(str`${left} should not be after ${right}.`, { id: 'check.not-after' });
    if (op === '>') return msg(str`${left} should be after ${right}.`, { id: 'check.after' });
    return msg(str`${left} should not be before ${right}.`, { id: 'check.not-before' });
  }
  // Numbers, and text and booleans (which only = and != compare).
  if (op === '=') return msg(str`${left} should equal ${right}.`, { id: 'check.equal' });
  if (op === '<') return msg(str`${left} should be less than ${right}.`, { id: 'check.less' });
  if (op === '<=') return msg(str`${left} should be at most ${right}.`, { id: 'check.at-most' });
  if (op === '>') return msg(str`${left} should be more than ${right}.`, { id: 'check.more' });
  return msg(str`${left} should be at least ${right}.`, { id: 'check.at-least' });
}
