import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { z } from 'zod';

/** Revisions and version numbers are PostgreSQL integers. */
export const MAX_INT32 = 2_147_483_647;

/** A definition as the routes take it: any JSON object (its rules are the engine's, checked where the route says). */
export const definitionJsonSchema = z.record(z.string(), z.unknown());

export const saveDraftSchema = z.strictObject({
  revision: z.number().int().min(0).max(MAX_INT32).optional(),
  definition: definitionJsonSchema,
});
export type SaveDraft = z.output<typeof saveDraftSchema>;

/** Body of PUT /definitions/{key}/draft (documentation only: `saveDraftSchema` is the rule). */
export class SaveDraftDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    default: 0,
    description: 'The revision this save is based on: 0 (or absent) creates the draft; otherwise it must equal the stored revision (else 409).',
  })
  revision?: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The definition being designed. Stored even when not valid yet (a draft is work in progress); size and node limits apply.',
  })
  definition!: Record<string, unknown>;
}

export const publishDraftSchema = z
  .strictObject({ revision: z.number().int().min(1).max(MAX_INT32).optional() })
  .optional()
  .transform((body) => body ?? {});
export type PublishDraft = z.output<typeof publishDraftSchema>;

/** Optional body of POST /definitions/{key}/draft/publish. */
export class PublishDraftDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'When given, the draft is published only if it is still at this revision (else 409): publish what you reviewed.',
  })
  revision?: number;
}
