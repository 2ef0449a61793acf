/**
 * What a reviewer sees beside the document, as the service answers it: where each value of
 * a document was found (`resultMetadata.documents`: sources with their page, offset, text,
 * boxes and confidence; the checks that failed; what to review) and the words printed on a
 * page (`GET …/files/{fileId}/pages/{n}/words`). Apart from resources.ts (which re-exports
 * it for the service) so that the interface's first view, which reads the resources but
 * reviews nothing, does not carry these schemas: the results view and the client's page
 * words load them when needed.
 */
import * as z from 'zod/mini';
import { checkFailureSchema } from './check-schemas.js';

const iri = z.string();

/** A place on a page, in fractions of the page (0 to 1 from its top-left corner). */
export const sourceBoxSchema = z.object({
  page: z.int().check(z.describe('The page, from 1.')),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
export type SourceBox = z.infer<typeof sourceBoxSchema>;

/**
 * The widths (pixels) a page's picture is drawn at (`GET …/files/{fileId}/pages/{n}`): a
 * width asked for is drawn at the first of these at least as wide (the widest past it), so
 * a page has six pictures at most in each format, and clients that ask for these widths
 * share what the service and the browsers keep.
 */
export const pagePictureWidths = [400, 800, 1200, 1600, 2400, 3000] as const;

/** The width of `pagePictureWidths` a picture asked `asked` pixels wide is drawn at. */
export function pictureWidthFor(asked: number): number {
  return pagePictureWidths.find((width) => width >= asked) ?? pagePictureWidths.at(-1)!;
}

/** The answer to `GET …/files/{fileId}/pages/{n}/words`: the words printed on a page. */
export const pageWordsSchema = z.object({
  page: z.int().check(z.describe('The page, from 1.')),
  words: z
    .array(
      z.object({
        text: z.string(),
        x: z.number(),
        y: z.number(),
        width: z.number(),
        height: z.number(),
      }),
    )
    .check(
      z.describe(
        'The words in reading order, each with its box in fractions of the page (0 to 1 from ' +
          "the top-left corner), as the sources' boxes are.",
      ),
    ),
});
export type PageWords = z.infer<typeof pageWordsSchema>;

/** Where each value of one document was found, and how its record measures up to the schema. */
export const documentMetadataSchema = z.object({
  sources: z.record(
    z.string(),
    z.object({
      file: z.string(),
      fileId: z.string(),
      page: z.number(),
      offset: z
        .number()
        .check(
          z.describe("Where the value's text starts in the page's text (…/pages/{n} as text)."),
        ),
      text: z.string(),
      confidence: z.optional(
        z
          .number()
          .check(
            z.minimum(0),
            z.maximum(1),
            z.describe(
              'How sure the rule that found the value is: about 0.95 labelled and confirmed by ' +
                "the document's arithmetic, 0.65-0.85 labelled, 0.5 guessed from position or pattern.",
            ),
          ),
      ),
      boxes: z.optional(
        z
          .array(sourceBoxSchema)
          .check(
            z.describe(
              'Where the value is printed on a page that is a picture (PDFs, images): one box ' +
                'per line of it, in fractions of the page (0 to 1 from the top-left corner). ' +
                'Text documents have none: their values are found by offset and text.',
            ),
          ),
      ),
    }),
  ),
  violations: z.array(z.object({ pointer: z.string(), message: z.string() })),
  checks: z.optional(
    z
      .array(checkFailureSchema)
      .check(
        z.describe(
          "The extractor's checks that this document's record fails, one entry per failure (per " +
            'item for a check that goes item by item); empty when every check holds or had its ' +
            'values missing.',
        ),
      ),
  ),
  review: z.optional(
    z
      .array(z.string())
      .check(
        z.describe(
          'JSON pointers of the values a person should look at before trusting them: those ' +
            'whose confidence is below reviewThreshold (0.6) and those a failed check involves.',
        ),
      ),
  ),
});
export type DocumentMetadata = z.infer<typeof documentMetadataSchema>;

/** `resultMetadata`: the metadata of each document, in the order of the documents. */
export const resultMetadataSchema = z.object({
  documents: z.array(z.extend(documentMetadataSchema, { file: iri })),
});
export type ResultMetadata = z.infer<typeof resultMetadataSchema>;
