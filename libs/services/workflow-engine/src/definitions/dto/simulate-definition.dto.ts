import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { z } from 'zod';
import { simulationRequestSchema } from '../../engine';
import { definitionJsonSchema } from './save-draft.dto';

export const simulateDefinitionSchema = simulationRequestSchema.extend({ definition: definitionJsonSchema });
export type SimulateDefinition = z.output<typeof simulateDefinitionSchema>;

/** The simulation input of POST /definitions/{key}/draft/simulate (the body may be absent). */
export const simulateDraftSchema = simulationRequestSchema.optional().transform((body) => body ?? {});

/** Body of POST /definitions/{key}/draft/simulate: the engine's simulation request. */
export class SimulateDraftDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Process variables by name, as the start of an instance would carry them.' })
  variables?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Per approval node key: one vote for every task (`approve`, `reject`, or `{ decision, target }` to send the instance back), or one per task in assignee order (`null`: not voted). Nodes without votes wait.',
  })
  votes?: Record<string, unknown>;
}

/** Body of POST /definitions/simulate: a definition and the simulation input. */
export class SimulateDefinitionDto extends SimulateDraftDto {
  @ApiProperty({ type: 'object', additionalProperties: true })
  definition!: Record<string, unknown>;
}
