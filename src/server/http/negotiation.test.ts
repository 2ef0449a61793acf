import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { namesMediaRange, negotiate, resourceMediaTypes } from './negotiation.js';

/** What `negotiate` chooses for a request with `accept` (none when undefined). */
async function chosen(accept: string | undefined, offered: readonly string[] = resourceMediaTypes) {
  const app = new Hono().get('/', (c) =>
    c.json({ chosen: negotiate(c, offered) ?? null, named: namesMediaRange(c) }),
  );
  const response = await app.request('/', {
    headers: accept === undefined ? {} : { Accept: accept },
  });
  return (await response.json()) as { chosen: string | null; named: boolean };
}

describe('negotiate', () => {
  it('answers JSON when there is no Accept header, it accepts anything, or it names no range', async () => {
    expect((await chosen(undefined)).chosen).toBe('application/json');
    expect((await chosen('*/*')).chosen).toBe('application/json');
    expect(await chosen(';;;')).toEqual({ chosen: 'application/json', named: false });
    expect(await chosen('x')).toEqual({ chosen: 'application/json', named: false });
  });

  it('follows q-values and specificity', async () => {
    expect((await chosen('text/csv;q=0.9, application/ld+json')).chosen).toBe(
      'application/ld+json',
    );
    expect((await chosen('text/*;q=0.5, text/html')).chosen).toBe('text/html');
    // The most specific range decides: JSON is refused although */* is acceptable.
    expect((await chosen('application/json;q=0, */*;q=0.1')).chosen).toBe(
      'application/vnd.api+json',
    );
    expect(
      (await chosen('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).chosen,
    ).toBe('text/html');
    expect((await chosen('TEXT/CSV')).chosen).toBe('text/csv');
  });

  it('reads a q-value that is not a number as 0', async () => {
    expect((await chosen('text/html;q=abc, application/json;q=0.5')).chosen).toBe(
      'application/json',
    );
    expect((await chosen('text/csv;Q=junk')).chosen).toBeNull();
  });

  it('finds nothing when nothing offered is acceptable', async () => {
    expect(await chosen('image/png')).toEqual({ chosen: null, named: true });
    expect((await chosen('application/json;q=0', ['application/json'])).chosen).toBeNull();
  });
});
