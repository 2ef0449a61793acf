/**
 * The interface's English catalogue, read out of its source: every `msg()` and `plural()`
 * call with its id and text, and the texts people would see that do not go through one.
 * The catalogue test (messages.test.ts) holds the locales in src/locales/ against it, and
 * the localisation journeys (e2e/localisation.spec.ts) look for its English texts on a
 * page that should show none.
 *
 * What it can see of texts outside the catalogue: the static text and the visible
 * attributes (aria-label, title, placeholder, alt…) of Lit `html` templates, and string
 * literals that read as words for people (two or more words, a capital first). A single
 * word in a plain string ('Waiting') or text built at run time from parts it cannot tell
 * from code are out of its sight.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TemplateMap } from '@lit/localize';
import ts from 'typescript';
import { labelDefaults, labelMessageId, labelNames } from '../../contract/labels.js';

/** One message as the English source has it. */
export interface SourceMessage {
  id: string;
  /** The English text, with `${0}`, `${1}`… where the values go. */
  text: string;
  /** How many values the text takes. */
  values: number;
  /** `plural()`'s messages: the English forms, whose ids are `id.category`. */
  plural: boolean;
  file: string;
}

/** A text people would see that is not in the catalogue. */
export interface LooseText {
  file: string;
  line: number;
  text: string;
}

export interface SourceScan {
  messages: Map<string, SourceMessage>;
  loose: LooseText[];
  /** Calls the scanner cannot read: no literal id, a template that is not a literal. */
  unreadable: LooseText[];
}

/** The folders and files of the interface: what reaches a browser. */
export const interfaceSources = ['src/elements', 'src/controllers', 'src/client', 'src/embed'];

/**
 * Texts for developers, not people, which stay English: the console's and a host's error
 * handler's words, and the embed script's fallback frame title (the frame's own page sets
 * its language). By the file they are in and their beginning.
 */
const developerTexts: { file: RegExp; text: RegExp }[] = [
  { file: /client\/client\.ts$/, text: /^This page was given a personal access token/ },
  {
    file: /client\/api-error\.ts$/,
    text: /^(We could not reach|The service sent an answer|Your session has ended, so)/,
  },
  // embed.js (3 KB, no catalogue) names the frame on the partner's page; its `title` option
  // gives it in the page's language.
  { file: /embed\/host\/embed\.ts$/, text: /^Document upload$/ },
  // embed.js's `onError` reasons, for the partner's developer: the handler words what its
  // page shows from the reason's `code`, in that page's language.
  {
    file: /embed\/host\/embed\.ts$/,
    text: /^(This upload link has expired|The document upload (is taking|cannot be shown|could not be loaded))/,
  },
];

/** Attributes whose text people read or hear. */
const visibleAttributes =
  /\s(aria-label|aria-description|aria-roledescription|aria-valuetext|title|placeholder|alt|label)="([^"]*)"/g;

function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'testing') walk(path);
      } else if (
        entry.name.endsWith('.ts') &&
        !entry.name.endsWith('.test.ts') &&
        !entry.name.endsWith('.styles.ts') &&
        !entry.name.endsWith('.d.ts')
      )
        files.push(path);
    }
  };
  for (const folder of interfaceSources)
    if (existsSync(join(root, folder))) walk(join(root, folder));
  return files;
}

/** A template's text with `${0}`, `${1}`… for its values; undefined if not a literal. */
function templateText(node: ts.Expression): { text: string; values: number } | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return { text: node.text, values: 0 };
  // A long text written as 'one line ' + 'the next'.
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = templateText(node.left);
    const right = templateText(node.right);
    if (left?.values === 0 && right?.values === 0)
      return { text: left.text + right.text, values: 0 };
  }
  if (ts.isTaggedTemplateExpression(node) && node.tag.getText() === 'str') {
    const template = node.template;
    if (ts.isNoSubstitutionTemplateLiteral(template)) return { text: template.text, values: 0 };
    let text = template.head.text;
    template.templateSpans.forEach((span, index) => {
      text += `\${${index}}${span.literal.text}`;
    });
    return { text, values: template.templateSpans.length };
  }
  return undefined;
}

function idOf(options: ts.Expression | undefined): string | undefined {
  if (!options || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const property of options.properties) {
    if (
      ts.isPropertyAssignment(property) &&
      property.name.getText() === 'id' &&
      ts.isStringLiteral(property.initializer)
    )
      return property.initializer.text;
  }
  return undefined;
}

/** `msg(labelDefaults[name], { id: labelMessageId(name) })`: a label's default. */
function isLabelMessage(node: ts.Node): boolean {
  if (!ts.isCallExpression(node) || calleeName(node) !== 'msg') return false;
  const [template, options] = node.arguments;
  return (
    !!template &&
    /^labelDefaults\[/.test(template.getText()) &&
    !!options &&
    /\bid: labelMessageId\(/.test(options.getText())
  );
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string {
  return node.expression.getText();
}

/** Whether a literal is an argument of msg/str/plural, or otherwise not for people. */
function isOutOfSight(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (ts.isCallExpression(parent) && ['msg', 'plural'].includes(calleeName(parent))) return true;
    if (ts.isTaggedTemplateExpression(parent) && ['str', 'css'].includes(parent.tag.getText()))
      return true;
    if (ts.isNewExpression(parent) && /(Error|Exception)$/.test(calleeName(parent))) return true;
    if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) return true;
    if (ts.isCallExpression(parent) && /^(console\.|super$)/.test(calleeName(parent))) return true;
  }
  return false;
}

/** Two or more words, the first capitalised: how a text for people reads. */
const readsAsWords = /^[A-Z][a-z’']*[,:]?\s+[A-Za-z“"]/;

export function scanInterfaceSource(root: string): SourceScan {
  const messages = new Map<string, SourceMessage>();
  const loose: LooseText[] = [];
  const unreadable: LooseText[] = [];
  let labelsThroughCatalogue = false;
  for (const path of sourceFiles(root)) {
    const file = relative(root, path);
    const source = ts.createSourceFile(
      path,
      readFileSync(path, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    const record = (message: SourceMessage, node: ts.Node) => {
      const known = messages.get(message.id);
      if (known && (known.text !== message.text || known.plural !== message.plural))
        unreadable.push({
          file,
          line: at(node),
          text: `${message.id} has two texts: “${known.text}” and “${message.text}”`,
        });
      else messages.set(message.id, message);
    };
    const visit = (node: ts.Node) => {
      if (isLabelMessage(node)) {
        // The labels' defaults, each by its name (src/elements/internal/labels.ts): recorded below.
        labelsThroughCatalogue = true;
      } else if (ts.isCallExpression(node) && calleeName(node) === 'msg') {
        const [template, options] = node.arguments;
        const id = idOf(options);
        const text = template && templateText(template);
        if (!id || !text) unreadable.push({ file, line: at(node), text: node.getText() });
        else record({ id, ...text, plural: false, file }, node);
      } else if (ts.isCallExpression(node) && calleeName(node) === 'plural') {
        const [, forms, options] = node.arguments;
        const id = idOf(options);
        const texts: Record<string, { text: string; values: number }> = {};
        if (forms && ts.isObjectLiteralExpression(forms))
          for (const property of forms.properties)
            if (ts.isPropertyAssignment(property)) {
              const text = templateText(property.initializer);
              if (text) texts[property.name.getText()] = text;
            }
        if (!id || !texts.one || !texts.other)
          unreadable.push({ file, line: at(node), text: node.getText() });
        else {
          record({ id: `${id}.one`, ...texts.one, plural: true, file }, node);
          record({ id: `${id}.other`, ...texts.other, plural: true, file }, node);
        }
      } else if (ts.isTaggedTemplateExpression(node) && node.tag.getText() === 'html') {
        const template = node.template;
        const pieces = ts.isNoSubstitutionTemplateLiteral(template)
          ? [template.text]
          : [template.head.text, ...template.templateSpans.map((span) => span.literal.text)];
        // Values stand as \u0000: a tag cut by a value is still one tag.
        const joined = pieces.join('\u0000');
        for (const [, , value] of joined.matchAll(visibleAttributes))
          if (/[A-Za-z]{2}/.test(value!)) loose.push({ file, line: at(node), text: value! });
        for (const fragment of joined.replace(/<[^>]*>/g, '\u0000').split('\u0000')) {
          const text = fragment.replace(/&[a-z]+;/g, ' ').trim();
          if (/[A-Za-z]{2}/.test(text)) loose.push({ file, line: at(node), text });
        }
      } else if (
        (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
        readsAsWords.test(node.text) &&
        !isOutOfSight(node) &&
        !developerTexts.some((known) => known.file.test(file) && known.text.test(node.text))
      ) {
        loose.push({ file, line: at(node), text: node.text });
      } else if (
        ts.isTemplateExpression(node) &&
        readsAsWords.test(node.head.text) &&
        !isOutOfSight(node) &&
        !developerTexts.some((known) => known.file.test(file) && known.text.test(node.head.text))
      ) {
        loose.push({ file, line: at(node), text: node.getText() });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  // The labels' English defaults are written once, in the contract.
  for (const name of labelsThroughCatalogue ? labelNames : []) {
    const id = labelMessageId(name);
    messages.set(id, {
      id,
      text: labelDefaults[name],
      values: 0,
      plural: false,
      file: 'src/contract/labels.ts',
    });
  }
  return { messages, loose, unreadable };
}

/** A catalogue entry's text with `${n}` where its values go, as the scan writes English's. */
export function catalogueText(template: TemplateMap[string]): string {
  if (typeof template === 'string') return template;
  const { strings, values } = template as unknown as { strings: string[]; values: number[] };
  return strings.reduce((text, piece, index) =>
    index === 0 ? piece : `${text}\${${values[index - 1]}}${piece}`,
  );
}

/** The values a catalogue's text takes: the numbers of its `${n}`. */
export function placeholdersOf(text: string): number[] {
  return [...text.matchAll(/\$\{(\d+)\}/g)].map((match) => Number(match[1])).sort();
}
