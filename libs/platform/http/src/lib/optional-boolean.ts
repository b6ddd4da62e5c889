import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

/**
 * An optional boolean query field: exactly `true` or `false`, anything else (`1`, `yes`, `TRUE`, the
 * field given twice) a 400 naming the field. A query value is text, and class-transformer's implicit
 * conversion would read `false` as true, so the two words are mapped here and nothing else is.
 */
export function OptionalBoolean(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'boolean', description }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean({ message: ({ property }) => `${property} must be true or false` }),
  );
}
