import { PipeTransform } from '@nestjs/common';
import { problemsOf } from '@lp/contracts';
import type { z } from 'zod';
import { ValidationError } from './domain-error';

/**
 * Validates a request body with the zod schema its RPC contract already checks, so one rule holds
 * on HTTP and RPC alike (`createCaseSchema` on `POST /api/cases` and `cases.create`). Failures are
 * the fleet's one `Validation.Failed` problem with messages per field, unknown fields included; a
 * body that is not an object at all is reported under `body`.
 *
 * Use it on a parameter typed as a plain type (not a class), so the global class-validator pipe
 * leaves the value alone after its storable-input check; document the body with `@ApiBody`.
 */
export class SchemaValidationPipe<TOut> implements PipeTransform<unknown, TOut> {
  constructor(private readonly schema: z.ZodType<TOut>) {}

  transform(value: unknown): TOut {
    const result = this.schema.safeParse(value);
    if (!result.success) throw new ValidationError(problemsOf(result.error, 'body'));
    return result.data;
  }
}
