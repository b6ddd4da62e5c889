import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { z } from 'zod';
import { DEFINITION_KEY_PATTERN, startInstanceSchema } from '@lp/contracts';

const variables = z.record(z.string(), z.unknown());

// The start, complete and reject bodies are the RPC contract's schemas too (`WorkflowRpc`), so both doors validate alike.
export { completeTaskSchema, rejectTaskSchema } from '@lp/contracts';
export { startInstanceSchema };
export type { CompleteTask, RejectTask, StartInstance } from '@lp/contracts';

export class StartInstanceDto {
  @ApiProperty({ pattern: DEFINITION_KEY_PATTERN.source, maxLength: 64, description: 'The definition key; the instance runs on its active version.' })
  definitionKey!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 200,
    description: 'The business object’s key; unique per definition key: a second start answers the first instance (200).',
  })
  businessKey!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Process variables (at most 64 KiB of JSON).' })
  variables?: Record<string, unknown>;

  @ApiPropertyOptional({ minimum: 0, maximum: 100, default: 0 })
  priority?: number;
}

export class CompleteTaskDto {
  @ApiPropertyOptional({ maxLength: 2000 })
  comment?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Merged (shallow) into the instance variables before the flow moves on.' })
  variables?: Record<string, unknown>;
}

export class RejectTaskDto {
  @ApiPropertyOptional({ maxLength: 2000 })
  comment?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'An allowed reject target (approval node key behind this node); absent: the instance is rejected.' })
  target?: string;
}

export const instanceOperationSchema = z
  .strictObject({ reason: z.string().max(2000).optional(), version: z.number().int().positive().optional() })
  .optional()
  .transform((b) => b ?? {});
export type InstanceOperation = z.output<typeof instanceOperationSchema>;

export class InstanceOperationDto {
  @ApiPropertyOptional({ maxLength: 2000, description: 'Why (kept in the event and the audit log line).' })
  reason?: string;

  @ApiPropertyOptional({ minimum: 1, description: 'The instance version the client read: a different current version is 409 Workflow.ConcurrencyConflict.' })
  version?: number;
}

export const changePrioritySchema = z.strictObject({ priority: z.number().int().min(0).max(100), version: z.number().int().positive().optional() });
export type ChangePriority = z.output<typeof changePrioritySchema>;

export class ChangePriorityDto {
  @ApiProperty({ minimum: 0, maximum: 100 })
  priority!: number;

  @ApiPropertyOptional({ minimum: 1, description: 'The instance version the client read: a different current version is 409 Workflow.ConcurrencyConflict.' })
  version?: number;
}

export const resubmitSchema = z
  .strictObject({ variables: variables.optional(), version: z.number().int().positive().optional() })
  .optional()
  .transform((b) => b ?? {});
export type Resubmit = z.output<typeof resubmitSchema>;

export class ResubmitDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Merged (shallow) into the instance variables before the flow starts again.',
  })
  variables?: Record<string, unknown>;

  @ApiPropertyOptional({ minimum: 1, description: 'The instance version the client read: a different current version is 409 Workflow.ConcurrencyConflict.' })
  version?: number;
}

export const transferTaskSchema = z.strictObject({ to: z.string().trim().min(1).max(255), comment: z.string().max(2000).optional() });
export type TransferTask = z.output<typeof transferTaskSchema>;

export class TransferTaskDto {
  @ApiProperty({ minLength: 1, maxLength: 255, description: 'The user subject who gets the task.' })
  to!: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  comment?: string;
}

export const delegateTaskSchema = transferTaskSchema;
export type DelegateTask = z.output<typeof delegateTaskSchema>;

export class DelegateTaskDto {
  @ApiProperty({ minLength: 1, maxLength: 255, description: 'The user subject who acts for the assignee; the task comes back to the assignee afterwards.' })
  to!: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  comment?: string;
}

export const ADD_POSITIONS = ['before', 'after', 'parallel'] as const;

export const addParticipantSchema = z.strictObject({
  subjects: z
    .array(z.string().trim().min(1).max(255))
    .min(1)
    .max(20)
    .refine((s) => new Set(s).size === s.length, 'subjects must be distinct'),
  position: z.enum(ADD_POSITIONS),
  comment: z.string().max(2000).optional(),
});
export type AddParticipant = z.output<typeof addParticipantSchema>;

export class AddParticipantDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: 20, description: 'Distinct user subjects, none with a seat at this approval already.' })
  subjects!: string[];

  @ApiProperty({
    enum: ADD_POSITIONS,
    description:
      '`parallel`: new seats counted by the node’s mode (not on sequential nodes); `before` / `after`: sequential nodes only, the new seats go before / after the caller’s.',
  })
  position!: (typeof ADD_POSITIONS)[number];

  @ApiPropertyOptional({ maxLength: 2000 })
  comment?: string;
}

// ---- administrative operations (`workflow.instance.manage`, audited) ------------------------------

const nodeKey = z.string().min(1).max(64);
const reason = z.string().max(2000).optional();
const version = z.number().int().positive().optional();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const startAtNodeSchema = startInstanceSchema.extend({ nodeKey, reason });
export type StartAtNode = z.output<typeof startAtNodeSchema>;

export class StartAtNodeDto extends StartInstanceDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 64,
    description: 'An approval node of the active version, on the main sequence or inside a branch: the instance starts there (docs/runtime.md).',
  })
  nodeKey!: string;

  @ApiPropertyOptional({ maxLength: 2000, description: 'Why (kept in the audit).' })
  reason?: string;
}

export const resetInstanceSchema = z.strictObject({ nodeKey, reason, version });
export type ResetInstance = z.output<typeof resetInstanceSchema>;

export class ResetInstanceDto {
  @ApiProperty({ minLength: 1, maxLength: 64, description: 'An approval node of the instance’s version: it opens anew (visit + 1).' })
  nodeKey!: string;

  @ApiPropertyOptional({ maxLength: 2000, description: 'Why (kept in the event and the audit).' })
  reason?: string;

  @ApiPropertyOptional({ minimum: 1, description: 'The instance version the client read: a different current version is 409 Workflow.ConcurrencyConflict.' })
  version?: number;
}

export const transferApplicantSchema = z.strictObject({ to: z.string().trim().min(1).max(255), reason, version });
export type TransferApplicant = z.output<typeof transferApplicantSchema>;

export class TransferApplicantDto {
  @ApiProperty({ minLength: 1, maxLength: 255, description: 'The user subject who becomes the instance’s initiator (applicant).' })
  to!: string;

  @ApiPropertyOptional({ maxLength: 2000, description: 'Why (kept in the event and the audit).' })
  reason?: string;

  @ApiPropertyOptional({ minimum: 1, description: 'The instance version the client read: a different current version is 409 Workflow.ConcurrencyConflict.' })
  version?: number;
}

export const MAX_BATCH_TASKS = 100;

export const batchCompleteSchema = z.strictObject({
  taskIds: z
    .array(
      z
        .string()
        .regex(UUID, 'must be a UUID')
        .transform((id) => id.toLowerCase()),
    )
    .min(1)
    .max(MAX_BATCH_TASKS)
    .refine((ids) => new Set(ids).size === ids.length, 'taskIds must be distinct'),
  comment: z.string().max(2000).optional(),
});
export type BatchComplete = z.output<typeof batchCompleteSchema>;

export class BatchCompleteDto {
  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_BATCH_TASKS,
    uniqueItems: true,
    description: 'Distinct task ids, completed in this order.',
  })
  taskIds!: string[];

  @ApiPropertyOptional({ maxLength: 2000, description: 'Kept on each completed task and in the audit.' })
  comment?: string;
}
