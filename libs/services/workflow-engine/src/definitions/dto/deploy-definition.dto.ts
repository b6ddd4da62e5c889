import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { DEFINITION_KEY_PATTERN } from '../definition-rules';
import { definitionJsonSchema, MAX_INT32 } from './save-draft.dto';

export const publishDefinitionSchema = z.strictObject({ definition: definitionJsonSchema });
export type PublishDefinition = z.output<typeof publishDefinitionSchema>;

/** Body of POST /definitions/{key}/deployments. */
export class PublishDefinitionDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Validated authoritatively (422 with `problems` when not valid).' })
  definition!: Record<string, unknown>;
}

export const legacyDeploySchema = z.strictObject({ key: z.string(), definition: definitionJsonSchema });
export type LegacyDeploy = z.output<typeof legacyDeploySchema>;

/** Body of POST /definitions/ (legacy snapshot deploy). */
export class LegacyDeployDto {
  @ApiProperty({ pattern: DEFINITION_KEY_PATTERN.source, maxLength: 64, example: 'contract-approval' })
  key!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Must only compile (structural check); the static rules are not enforced.' })
  definition!: Record<string, unknown>;
}

export const grayscaleSchema = z.strictObject({ version: z.number().int().min(1).max(MAX_INT32) });
export type Grayscale = z.output<typeof grayscaleSchema>;

/** Body of POST /definitions/{key}/deployments/grayscale. */
export class GrayscaleDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The version number (of this key) to make active; the current one is kept as previous.' })
  version!: number;
}
