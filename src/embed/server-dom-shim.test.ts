import { describe, expect, it } from 'vitest';
import { CustomElementRegistry, HTMLElement } from './server-dom-shim.js';

describe('the ES library’s registry for when there is no DOM', () => {
  it('keeps what is defined, by name and by constructor, and says when a name is defined', async () => {
    const registry = new CustomElementRegistry();
    class First extends HTMLElement {}
    class Second extends HTMLElement {}
    const waiting = registry.whenDefined('x-second');
    registry.define('x-first', First as unknown as CustomElementConstructor);
    expect(registry.get('x-first')).toBe(First);
    expect(registry.get('x-second')).toBeUndefined();
    expect(registry.getName(First as unknown as CustomElementConstructor)).toBe('x-first');
    expect(registry.getName(Second as unknown as CustomElementConstructor)).toBeNull();
    registry.define('x-second', Second as unknown as CustomElementConstructor);
    await expect(waiting).resolves.toBe(Second);
    await expect(registry.whenDefined('x-first')).resolves.toBe(First);
  });

  it('refuses a name or a constructor defined already, as a page’s registry does', () => {
    const registry = new CustomElementRegistry();
    class First extends HTMLElement {}
    class Second extends HTMLElement {}
    registry.define('x-first', First as unknown as CustomElementConstructor);
    expect(() =>
      registry.define('x-first', Second as unknown as CustomElementConstructor),
    ).toThrow();
    expect(() =>
      registry.define('x-other', First as unknown as CustomElementConstructor),
    ).toThrow();
  });
});
