import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { z } from 'zod';
import { DEFINITION_KEY_PATTERN, tenantIdSchema } from '@lp/contracts';
import { INSTANCE_STATUSES } from '../../store';

/** At most this many tasks per imported instance (docs/management.md, Limits). */
export const MAX_IMPORT_TASKS = 500;
/** Compact JSON of the whole import body, UTF-8 bytes: below the platform's 1 MB, as an instance is far smaller than a definition. */
export const MAX_IMPORT_BYTES = 524_288;

const subject = z.string().min(1).max(255);
const comment = z.string().max(2000);
const isoTime = z.iso.datetime({ offset: true });
/** A legacy task's end state: a delegation is imported as its outcome (the delegate's advice is not a vote here). */
export const LEGACY_TASK_STATUSES = ['Pending', 'Approved', 'Rejected', 'Transferred', 'Cancelled'] as const;

const legacyTask = z.strictObject({
  nodeKey: z.string().regex(DEFINITION_KEY_PATTERN, 'a node key of the definition version'),
  visit: z.number().int().min(1).max(1000).default(1),
  assignee: subject,
  status: z.enum(LEGACY_TASK_STATUSES),
  createdAt: isoTime.optional(),
  decidedBy: subject.optional(),
  decidedAt: isoTime.optional(),
  comment: comment.optional(),
});
export type LegacyTask = z.output<typeof legacyTask>;

/**
 * One legacy instance (docs/management.md, Legacy import). The definition is named either by
 * `definitionId` or by `definitionKey` and `version`, never both; per-task rules that need no
 * definition are checked here, the rest (nodes, modes) by the import against the version.
 */
export const legacyImportSchema = z
  .strictObject({
    sourceId: z.string().min(1).max(200),
    tenantId: tenantIdSchema(),
    definitionId: z.uuid().optional(),
    definitionKey: z.string().regex(DEFINITION_KEY_PATTERN).optional(),
    version: z.number().int().positive().optional(),
    businessKey: z.string().min(1).max(200),
    initiator: subject,
    status: z.enum(INSTANCE_STATUSES),
    variables: z.record(z.string(), z.unknown()).default({}),
    priority: z.number().int().min(0).max(100).default(0),
    createdAt: isoTime,
    endedAt: isoTime.nullable().optional(),
    tasks: z.array(legacyTask).max(MAX_IMPORT_TASKS).default([]),
  })
  .superRefine((body, ctx) => {
    const byId = body.definitionId !== undefined;
    const byKey = body.definitionKey !== undefined || body.version !== undefined;
    if (byId === byKey)
      ctx.addIssue({ code: 'custom', path: ['definitionId'], message: 'name the definition by definitionId, or by definitionKey and version' });
    else if (byKey && (body.definitionKey === undefined || body.version === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [body.definitionKey === undefined ? 'definitionKey' : 'version'],
        message: 'definitionKey and version go together',
      });
    const ended = !['Running', 'Suspended'].includes(body.status);
    if (ended && !body.endedAt) ctx.addIssue({ code: 'custom', path: ['endedAt'], message: `a ${body.status} instance has an end time` });
    if (!ended && body.endedAt) ctx.addIssue({ code: 'custom', path: ['endedAt'], message: `a ${body.status} instance has not ended` });
    if (body.endedAt && Date.parse(body.endedAt) < Date.parse(body.createdAt)) ctx.addIssue({ code: 'custom', path: ['endedAt'], message: 'before createdAt' });
    const now = Date.now();
    if (Date.parse(body.createdAt) > now) ctx.addIssue({ code: 'custom', path: ['createdAt'], message: 'in the future' });
    body.tasks.forEach((task, i) => {
      const decided = task.status !== 'Pending' && task.status !== 'Cancelled';
      if (decided && (task.decidedBy === undefined || task.decidedAt === undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['tasks', i, task.decidedBy === undefined ? 'decidedBy' : 'decidedAt'],
          message: `a ${task.status} task names who decided it and when`,
        });
      if (task.status === 'Pending' && (task.decidedBy !== undefined || task.decidedAt !== undefined))
        ctx.addIssue({ code: 'custom', path: ['tasks', i, 'status'], message: 'a Pending task is not decided yet' });
      if (task.status === 'Pending' && ended)
        ctx.addIssue({ code: 'custom', path: ['tasks', i, 'status'], message: `a ${body.status} instance has no open task` });
      if (task.decidedAt !== undefined && Date.parse(task.decidedAt) > now)
        ctx.addIssue({ code: 'custom', path: ['tasks', i, 'decidedAt'], message: 'in the future' });
      if (task.decidedAt !== undefined && task.createdAt !== undefined && Date.parse(task.decidedAt) < Date.parse(task.createdAt))
        ctx.addIssue({ code: 'custom', path: ['tasks', i, 'decidedAt'], message: 'before the task’s createdAt' });
    });
    if (!ended && !body.tasks.some((t) => t.status === 'Pending'))
      ctx.addIssue({
        code: 'custom',
        path: ['tasks'],
        message: `a ${body.status} instance has at least one Pending task (someone must be able to move it on)`,
      });
  });
export type LegacyImport = z.output<typeof legacyImportSchema>;

export class LegacyTaskDto {
  @ApiProperty({ description: 'An approval node of the definition version.' }) nodeKey!: string;
  @ApiPropertyOptional({ minimum: 1, default: 1, description: 'Which visit of the node (2 after a rejection brought the flow back).' }) visit?: number;
  @ApiProperty({ maxLength: 255 }) assignee!: string;
  @ApiProperty({ enum: LEGACY_TASK_STATUSES, description: 'Pending only on a Running or Suspended instance; a delegation is imported as its outcome.' })
  status!: string;
  @ApiPropertyOptional({ format: 'date-time' }) createdAt?: string;
  @ApiPropertyOptional({ maxLength: 255, description: 'Required for Approved, Rejected, Transferred.' }) decidedBy?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Required for Approved, Rejected, Transferred.' }) decidedAt?: string;
  @ApiPropertyOptional({ maxLength: 2000 }) comment?: string;
}

export class LegacyImportDto {
  @ApiProperty({ maxLength: 200, description: 'The legacy system’s id of the instance: the idempotency key, per tenant.' }) sourceId!: string;
  @ApiProperty({ maxLength: 64, description: 'The tenant to import into (the spec’s one body-supplied tenant; platform-level permission).' }) tenantId!: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'The definition version, or name it by definitionKey and version.' }) definitionId?: string;
  @ApiPropertyOptional({ maxLength: 64 }) definitionKey?: string;
  @ApiPropertyOptional({ minimum: 1 }) version?: number;
  @ApiProperty({ maxLength: 200 }) businessKey!: string;
  @ApiProperty({ maxLength: 255 }) initiator!: string;
  @ApiProperty({ enum: INSTANCE_STATUSES }) status!: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'At most 64 KiB of JSON.' }) variables?: Record<string, unknown>;
  @ApiPropertyOptional({ minimum: 0, maximum: 100, default: 0 }) priority?: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, description: 'Required exactly when the status is terminal.' }) endedAt?: string | null;
  @ApiPropertyOptional({ type: [LegacyTaskDto], maxItems: MAX_IMPORT_TASKS }) tasks?: LegacyTaskDto[];
}
