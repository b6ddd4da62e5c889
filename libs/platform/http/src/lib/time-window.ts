import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional } from 'class-validator';

/**
 * An optional ISO 8601 date-time query field, such as the `from` (inclusive) and `to` (exclusive)
 * bounds of an audit or replay window; anything else is a 400 naming the field.
 */
export function OptionalInstant(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ format: 'date-time', description }),
    IsOptional(),
    IsISO8601({ strict: true }, { message: ({ property }) => `${property} must be an ISO 8601 date-time` }),
  );
}
