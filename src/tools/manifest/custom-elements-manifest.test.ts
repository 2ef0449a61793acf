import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renamedViewParts, viewParts } from '../../elements/internal/parts.js';
import { tokenStyles } from '../../elements/styles/theme.styles.js';
import { projectRoot } from '../project-root.js';
import {
  createCustomElementsManifest,
  type CustomElementsManifest,
} from './custom-elements-manifest.js';

interface Declaration {
  name: string;
  tagName?: string;
  customElement?: boolean;
  attributes?: { name: string; fieldName?: string; default?: string; description?: string }[];
  members?: { kind: string; name: string; privacy?: string; description?: string }[];
  events?: { name: string; type?: { text: string }; description?: string }[];
  cssParts?: { name: string; description?: string }[];
  cssProperties?: { name: string; default?: string; description?: string }[];
  slots?: { name: string; description?: string }[];
}

let manifest: CustomElementsManifest;

beforeAll(async () => {
  manifest = await createCustomElementsManifest(projectRoot);
});

function element(tag: string): Declaration {
  const found = manifest.modules
    .flatMap((module) => (module.declarations ?? []) as unknown as Declaration[])
    .find((declaration) => declaration.tagName === tag);
  if (!found) throw new Error(`The manifest has no <${tag}>.`);
  return found;
}

const source = (path: string) => readFileSync(join(projectRoot, path), 'utf8');

/** The part names an element's templates use (`part="button submit-button"`). */
function partsUsedIn(...paths: string[]): Set<string> {
  const names = paths.flatMap((path) =>
    [...source(path).matchAll(/\spart="([^"$]+)"/g)].flatMap((match) => match[1]!.split(/\s+/)),
  );
  return new Set(names);
}

const views = {
  'extractor-introduction-view': [
    'src/elements/introduction-view/introduction-view.ts',
    'src/elements/internal/view-element.ts',
  ],
  'extractor-bucket-view': [
    'src/elements/bucket-view/bucket-view.ts',
    'src/elements/internal/view-element.ts',
  ],
  'extractor-extraction-view': [
    'src/elements/extraction-view/extraction-view.ts',
    'src/elements/internal/view-element.ts',
  ],
  'extractor-results-view': [
    'src/elements/results-view/results-view.ts',
    'src/elements/results-view/document-switcher.ts',
    'src/elements/results-view/nothing-found.ts',
    'src/elements/record-editor/record-table.ts',
    'src/elements/record-editor/schema-form.ts',
    'src/elements/internal/view-element.ts',
  ],
} as const;

describe('custom-elements.json', () => {
  it('describes every tag of the library', () => {
    for (const tag of ['extractor-app', ...Object.keys(views)])
      expect(element(tag).customElement, tag).toBe(true);
  });

  it('gives every attribute of <extractor-app> its property, default and description', () => {
    const app = element('extractor-app');
    const attributes = new Map(app.attributes?.map((attribute) => [attribute.name, attribute]));
    expect([...attributes.keys()].sort()).toEqual([
      'base-url',
      'color-scheme',
      'heading-level',
      'locale',
      'mode',
      'session',
    ]);
    expect(attributes.get('color-scheme')).toMatchObject({ fieldName: 'colorScheme' });
    expect(attributes.get('locale')).toMatchObject({ fieldName: 'locale' });
    expect(attributes.get('base-url')).toMatchObject({ fieldName: 'baseUrl', default: "''" });
    expect(attributes.get('session')).toMatchObject({ fieldName: 'session', default: "''" });
    expect(attributes.get('mode')).toMatchObject({ fieldName: 'mode', default: "'element'" });
    expect(attributes.get('heading-level')).toMatchObject({
      fieldName: 'headingLevel',
      default: '2',
    });
    const fields = new Set(app.members?.map((member) => member.name));
    for (const attribute of attributes.values()) {
      expect(fields.has(attribute.fieldName!), attribute.name).toBe(true);
      expect(attribute.description, attribute.name).toBeTruthy();
    }
    for (const method of ['goToStep', 'setTheme', 'step', 'strings'])
      expect(fields.has(method), method).toBe(true);
  });

  it('shows no event handler or editor callback as public API', () => {
    for (const tag of ['extractor-app', ...Object.keys(views)]) {
      const shown = (element(tag).members ?? [])
        .filter((member) => member.privacy === undefined || member.privacy === 'public')
        .map((member) => member.name);
      expect(
        shown.filter((name) =>
          /^(handle[A-Z]|flush$|setValue$|addItem$|removeItem$|renderTable$|violationsAt$)/.test(
            name,
          ),
        ),
        tag,
      ).toEqual([]);
    }
  });

  it('lists every event a page can hear from <extractor-app>, typed and described', () => {
    const declared = [
      ...source('src/elements/internal/events.ts').matchAll(
        /^\s+'(extractor-[a-z-]+)': CustomEvent</gm,
      ),
    ].map((match) => match[1]!);
    // A view's request to the app to change step; the app answers it with extractor-step-changed.
    const internal = ['extractor-step-requested'];
    const events = element('extractor-app').events ?? [];
    expect(events.map((event) => event.name).sort()).toEqual(
      declared.filter((name) => !internal.includes(name)).sort(),
    );
    for (const event of events) {
      expect(event.type?.text, event.name).toMatch(/^CustomEvent<[A-Za-z]+Detail>$/);
      expect(event.description, event.name).toBeTruthy();
    }
    expect(
      events.find((event) => event.name === 'extractor-submit-requested')?.description,
    ).toMatch(/preventDefault/);
  });

  it('documents every part each view draws, and <extractor-app> passes them all through', () => {
    const appParts = new Set(element('extractor-app').cssParts?.map((part) => part.name));
    for (const name of partsUsedIn('src/elements/app/app.ts'))
      expect(appParts.has(name), name).toBe(true);
    for (const [tag, paths] of Object.entries(views)) {
      const documented = new Set(element(tag).cssParts?.map((part) => part.name));
      for (const name of partsUsedIn(...paths)) {
        expect(documented.has(name), `${tag} ${name}`).toBe(true);
        // The app renames two so they do not clash with its own parts of the same name.
        const exported = renamedViewParts[name as keyof typeof renamedViewParts] ?? name;
        expect(appParts.has(exported), `extractor-app::part(${exported})`).toBe(true);
        expect(viewParts as readonly string[], `exported ${name}`).toContain(name);
      }
    }
    const exported = new Set(viewParts.map((name) => renamedViewParts[name] ?? name));
    for (const name of appParts) {
      const own = ['base', 'steps', 'view', 'status', 'session-notice', 'continue-session-button'];
      if (own.includes(name)) continue;
      expect(exported.has(name), name).toBe(true);
    }
  });

  it('lists every --extractor-* custom property with the default the styles really use', () => {
    const used = new Map(
      [
        ...tokenStyles.cssText.matchAll(
          /--_extractor-[a-z-]+:\s*var\(\s*(--extractor-[a-z-]+),\s*([^;]+?)\s*\);/g,
        ),
      ].map((match) => [match[1]!, match[2]!.replace(/\s+/g, ' ').replace(/,\s*/g, ', ')]),
    );
    expect(used.size).toBeGreaterThanOrEqual(14);
    const documented = element('extractor-app').cssProperties ?? [];
    expect(documented.map((property) => property.name).sort()).toEqual([...used.keys()].sort());
    for (const property of documented) {
      const actual = used
        .get(property.name)!
        .replace('var(--_extractor-accent)', 'var(--extractor-color-accent)');
      expect(property.default, property.name).toBe(actual);
      expect(property.description, property.name).toBeTruthy();
    }
  });
});
