/**
 * How a field of the results is named for people: the schema's `title` when it has one,
 * else its property name made readable (`invoice_number` → "Invoice number").
 */
import type { TargetSchema } from '../contract/json-schema.js';

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
  if (typeof value === 'number') return new Intl.NumberFormat().format(value);
  if (typeof value === 'string' && schema?.format === 'date') return formatDate(value);
  if (Array.isArray(value)) return value.length === 1 ? '1 item' : `${value.length} items`;
  if (typeof value === 'object') {
    const parts = Object.values(value as Record<string, unknown>)
      .filter(
        (part) => part !== null && part !== undefined && typeof part !== 'object' && part !== '',
      )
      .map(String);
    return parts.length > 0 ? parts.join(', ') : '—';
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** `2024-05-01` as the person's locale writes it ("May 1, 2024", "1 mai 2024"); else as is. */
export function formatDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  // Midnight UTC, shown in UTC: a date has no time zone to move it to the day before.
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(match[3])) return value;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}
