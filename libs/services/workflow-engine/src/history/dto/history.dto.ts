import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';

/** Longest retention a tenant may set (100 years): beyond it "forever" is the honest answer, and the column's check says so too. */
export const MAX_RETENTION_DAYS = 36_500;

export const setRetentionSchema = z.strictObject({ retentionDays: z.number().int().min(1).max(MAX_RETENTION_DAYS).nullable() });
export type SetRetention = z.output<typeof setRetentionSchema>;

export class SetRetentionDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: MAX_RETENTION_DAYS,
    description: 'Days an archived instance is kept after it ended; null returns the tenant to the default (WORKFLOW_HISTORY_RETENTION_DAYS).',
  })
  retentionDays!: number | null;
}
