import { randomBytes, randomInt } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * A UUID version 7 (RFC 9562): 48 bits of milliseconds, a 12-bit sequence, then 62 random
 * bits. Time order keeps indexes compact; the random part makes ids unguessable. Within one
 * millisecond the sequence counts up from a random start (RFC 9562, 6.2, method 1), so the
 * ids one process makes sort in the order it made them: lists ordered by (created_at, id)
 * keep that order when two rows share a millisecond, on SQLite and PostgreSQL alike.
 */
export function newId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = randomInt(0x800);
  } else if (++sequence > 0xfff) {
    // More than 2,048 ids in one millisecond: borrow the next one rather than repeat an order.
    lastMs++;
    sequence = randomInt(0x800);
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function nowIso(): string {
  return new Date().toISOString();
}
