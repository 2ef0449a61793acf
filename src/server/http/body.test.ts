import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { validateQuery } from './body.js';
import { ProblemError } from './problem.js';

describe('validateQuery', () => {
  const schema = z.object({
    size: z.optional(z.enum(['small', 'large'], { error: 'must be small or large' })),
    name: z.optional(z.string()),
  });

  it('reads the first value of each parameter, and an empty one as absent', () => {
    expect(validateQuery(schema, { size: ['large', 'oops'], name: '' })).toEqual({ size: 'large' });
  });

  it('answers 400 naming the parameter and saying what it must be', () => {
    let thrown: unknown;
    try {
      validateQuery(schema, { size: 'medium' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    expect((thrown as ProblemError).toJSON()).toMatchObject({
      status: 400,
      detail: 'Query parameter size must be small or large.',
      errors: [{ parameter: 'size', detail: 'must be small or large' }],
    });
  });
});
