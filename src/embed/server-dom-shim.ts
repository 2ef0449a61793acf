/**
 * What the ES library (/sdk/extractor.mjs) bundles in place of `@lit-labs/ssr-dom-shim`
 * (src/tools/build/build.ts). That library takes Lit's node build so that a server-side renderer
 * can import it, and the node build takes two things from the shim for when there is no
 * DOM: a base class for elements, and a registry it puts on globalThis when there is none.
 * The whole shim (an EventTarget, ElementInternals, stand-ins for CSS and the observers:
 * 4.6 KB gzipped, a sixteenth of the library) is for rendering elements on the server,
 * which this library never asks for: without a document it registers nothing (registry.ts),
 * and in a browser Lit takes the real HTMLElement and registry. A renderer that installs the
 * full shim on globalThis first, as @lit-labs/ssr does, keeps its own too.
 */

/** The base of the element classes when there is no DOM: they are defined, never made. */
export class HTMLElement {}

interface Waiting {
  promise: Promise<CustomElementConstructor>;
  resolve: (constructor: CustomElementConstructor) => void;
}

/** A registry that keeps what is defined in it, as a page's does (for other libraries). */
export class CustomElementRegistry {
  readonly #definitions = new Map<string, CustomElementConstructor>();
  readonly #waiting = new Map<string, Waiting>();

  define(name: string, constructor: CustomElementConstructor): void {
    if (this.#definitions.has(name) || this.getName(constructor) !== null) {
      throw new Error(`"${name}" or its constructor is defined in this registry already.`);
    }
    this.#definitions.set(name, constructor);
    this.#waiting.get(name)?.resolve(constructor);
    this.#waiting.delete(name);
  }

  get(name: string): CustomElementConstructor | undefined {
    return this.#definitions.get(name);
  }

  getName(constructor: CustomElementConstructor): string | null {
    for (const [name, defined] of this.#definitions) if (defined === constructor) return name;
    return null;
  }

  whenDefined(name: string): Promise<CustomElementConstructor> {
    const defined = this.#definitions.get(name);
    if (defined) return Promise.resolve(defined);
    let waiting = this.#waiting.get(name);
    if (!waiting) {
      let resolve!: Waiting['resolve'];
      const promise = new Promise<CustomElementConstructor>((done) => (resolve = done));
      waiting = { promise, resolve };
      this.#waiting.set(name, waiting);
    }
    return waiting.promise;
  }

  /** Nothing to upgrade: there are no elements without a DOM. */
  upgrade(): void {}
}

export const customElements = new CustomElementRegistry();
