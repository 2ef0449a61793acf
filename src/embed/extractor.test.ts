import { describe, expect, it } from 'vitest';

describe('the custom element library entry', () => {
  it('registers nothing when only a class is imported', async () => {
    const { ExtractorApp } = await import('../elements/app/app.js');
    expect(typeof ExtractorApp).toBe('function');
    expect(customElements.get('extractor-app')).toBeUndefined();
  });

  it('registers the tags when the entry is imported, and a second registration is harmless', async () => {
    const library = await import('./extractor.js');
    expect(customElements.get('extractor-app')).toBe(library.ExtractorApp);
    expect(customElements.get('extractor-introduction-view')).toBe(
      library.ExtractorIntroductionView,
    );
    const { defineExtractorElements } = await import('./define.js');
    expect(() => defineExtractorElements()).not.toThrow();
    await library.defineAllExtractorElements();
    expect(customElements.get('extractor-results-view')).toBe(library.ExtractorResultsView);
  });
});
