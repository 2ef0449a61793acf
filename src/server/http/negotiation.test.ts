import { describe, expect, it } from 'vitest';
import { negotiate, resourceMediaTypes } from './negotiation.js';

describe('negotiate', () => {
  it('answers JSON when there is no Accept header or it accepts anything', () => {
    expect(negotiate(undefined, resourceMediaTypes)).toBe('application/json');
    expect(negotiate('*/*', resourceMediaTypes)).toBe('application/json');
  });

  it('follows q-values and specificity', () => {
    expect(negotiate('text/csv;q=0.9, application/ld+json', resourceMediaTypes)).toBe(
      'application/ld+json',
    );
    expect(negotiate('text/*;q=0.5, text/html', resourceMediaTypes)).toBe('text/html');
    expect(negotiate('application/json;q=0, */*;q=0.1', resourceMediaTypes)).toBe(
      'application/vnd.api+json',
    );
    expect(
      negotiate(
        'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        resourceMediaTypes,
      ),
    ).toBe('text/html');
  });

  it('finds nothing when nothing offered is acceptable', () => {
    expect(negotiate('image/png', resourceMediaTypes)).toBeUndefined();
    expect(negotiate('application/json;q=0', ['application/json'])).toBeUndefined();
  });
});
