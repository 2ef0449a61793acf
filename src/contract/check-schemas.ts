/**
 * The shapes of an extractor's checks (docs/api/results.md, Checks): what an extractor may
 * define, as the service reads it and answers it, and what a failed check looks like in a
 * document's metadata. Apart from their evaluation (checks.ts, which re-exports these), so
 * that the resources the interface's first view reads name them without carrying the
 * evaluator: the results view loads that, later.
 */
import * as z from 'zod/mini';

export const checkOperators = ['=', '!=', '<', '<=', '>', '>='] as const;
export type CheckOperator = (typeof checkOperators)[number];

/** How many checks one extractor may define. */
export const maxChecks = 50;

const pointer = /* @__PURE__ */ z
  .string()
  .check(
    z.maxLength(500),
    z.regex(/^\//, 'must be a JSON pointer into the results, such as "/total"'),
  );

const sumOperand = /* @__PURE__ */ z.strictObject({
  sum: pointer.check(
    z.describe('The values at this pointer added up; `*` stands for every item of a list.'),
  ),
});

const termMessage = 'must be a JSON pointer ("/total"), a number, or { "sum": "/list/*/field" }';
/** What arithmetic works on: a value, a number or a sum (no arithmetic within arithmetic). */
const term = /* @__PURE__ */ z.union([pointer, z.number(), sumOperand], { error: termMessage });
const terms = /* @__PURE__ */ z.array(term).check(z.minLength(2), z.maxLength(10));

export const checkOperandSchema = /* @__PURE__ */ z.union(
  [
    pointer,
    z.number(),
    z.strictObject({
      value: z
        .union([z.string().check(z.maxLength(500)), z.number(), z.boolean()])
        .check(z.describe('A literal: text, a date as YYYY-MM-DD, a number or a boolean.')),
    }),
    sumOperand,
    z.strictObject({ add: terms }),
    z.strictObject({ subtract: z.tuple([term, term]) }),
    z.strictObject({ multiply: terms }),
  ],
  {
    error:
      'must be a JSON pointer ("/total"), a number, or an object with one of value, sum, add, subtract, multiply',
  },
);
export type CheckOperand = z.infer<typeof checkOperandSchema>;
export type Term = z.infer<typeof term>;

export const checkSchema = /* @__PURE__ */ z.strictObject({
  left: checkOperandSchema,
  op: z.enum(checkOperators),
  right: checkOperandSchema,
  tolerance: z.optional(
    z
      .number()
      .check(
        z.minimum(0),
        z.describe(
          'Values this close count as equal: an amount for numbers, days for dates. Default 0.',
        ),
      ),
  ),
  message: z.optional(
    z
      .string()
      .check(
        z.maxLength(500),
        z.describe(
          'What a person is told when the check fails; a plain sentence is made without it.',
        ),
      ),
  ),
});
export type Check = z.infer<typeof checkSchema>;

export const checksSchema = /* @__PURE__ */ z.array(checkSchema).check(z.maxLength(maxChecks));

/**
 * A check as the service answers it: `checkSchema` with the operands taken as they come
 * (they were checked when the extractor was saved). Whoever evaluates the checks reads
 * them with `checksSchema` first.
 */
export const savedCheckSchema = z.object({
  left: z.unknown().check(z.describe("An operand, as SavedExtractorInput's checks say.")),
  op: z.enum(checkOperators),
  right: z.unknown().check(z.describe("An operand, as SavedExtractorInput's checks say.")),
  tolerance: z.optional(z.number()),
  message: z.optional(z.string()),
});
export type SavedCheck = z.infer<typeof savedCheckSchema>;

/** A check that failed on the results: which, the values it involves, and why. */
export const checkFailureSchema = /* @__PURE__ */ z.object({
  check: z.int().check(z.describe("The failed check's index in the extractor's checks.")),
  message: z.string(),
  pointers: z
    .array(z.string())
    .check(z.describe('JSON pointers of the values the check compared: the fields to review.')),
});
export type CheckFailure = z.infer<typeof checkFailureSchema>;
