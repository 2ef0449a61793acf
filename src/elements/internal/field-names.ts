/**
 * How a field of the results is named for people: the schema's `title` when it has one,
 * else its property name made readable (`invoice_number` → "Invoice number").
 */
import { msg, str } from '@lit/localize';
import type { TargetSchema } from '../../contract/json-schema.js';
import { formatDate, formatNumber } from '../../locales/format.js';
import { plural } from '../../locales/plural.js';

export function humanizeName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

export function fieldTitle(name: string, schema: TargetSchema | undefined): string {
  return schema?.title?.trim() || humanizeName(name);
}

/**
 * A value as short text for a summary: lists by their length, nothing as a dash, and a
 * date (a `format: date` field) and a number as the person's locale writes them.
 */
export function summarizeValue(value: unknown, schema?: TargetSchema): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string' && schema?.format === 'date') return formatDate(value);
  if (Array.isArray(value))
    return plural(
      value.length,
      {
        one: str`${formatNumber(value.length)} item`,
        other: str`${formatNumber(value.length)} items`,
      },
      { id: 'value.items' },
    );
  if (typeof value === 'object') {
    const parts = Object.values(value as Record<string, unknown>)
      .filter(
        (part) => part !== null && part !== undefined && typeof part !== 'object' && part !== '',
      )
      .map((part) => summarizeValue(part));
    return parts.length > 0 ? parts.join(', ') : '—';
  }
  if (typeof value === 'boolean')
    return value ? msg('Yes', { id: 'value.yes' }) : msg('No', { id: 'value.no' });
  if (typeof value === 'number') return formatNumber(value);
  return String(value);
}
