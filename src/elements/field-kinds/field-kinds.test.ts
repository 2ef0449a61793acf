import { describe, expect, it } from 'vitest';
import { valueFromInput } from './index.js';

describe('valueFromInput', () => {
  const amount = { type: 'number' } as const;
  it('turns typed numbers into numbers and keeps anything else as typed', () => {
    expect(valueFromInput(amount, '1.234,56', { locale: 'de-DE' })).toBe(1234.56);
    expect(valueFromInput(amount, 'lots', { locale: 'de-DE' })).toBe('lots');
    expect(valueFromInput({ type: ['number', 'null'] }, '  ')).toBeNull();
  });

  it('leaves an emptied field without a value when it must be filled in', () => {
    expect(valueFromInput({ type: 'string' }, '')).toBe('');
    expect(valueFromInput({ type: 'string' }, '', { required: true })).toBeUndefined();
  });
});
