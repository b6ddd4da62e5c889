import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { z } from 'zod';
import { INSTANCE_STATUSES, TASK_STATUSES } from '../../store';
import { InstanceResponse } from '../../runtime/dto/runtime.responses';

export const deleteDefinitionQuerySchema = z.strictObject({ force: z.enum(['true', 'false']).optional() }).transform((q) => ({ force: q.force === 'true' }));
export type DeleteDefinitionQuery = z.output<typeof deleteDefinitionQuerySchema>;

/** A role as definitions name it (`{ kind: 'role', role }`), as `authz.role.members` takes it. */
export const roleNameSchema = z.string().min(1).max(100);

const countsOf = (statuses: readonly string[]) => ({
  type: 'object' as const,
  additionalProperties: { type: 'integer' as const },
  description: `A count for each of ${statuses.join(', ')} (0 included).`,
});

class InstanceStatistics {
  @ApiProperty() total!: number;
  @ApiProperty(countsOf(INSTANCE_STATUSES)) byStatus!: Record<string, number>;
  @ApiProperty({ description: 'Instances that came in through the legacy import.' }) imported!: number;
}

class TaskStatistics {
  @ApiProperty() total!: number;
  @ApiProperty({ description: 'Pending tasks.' }) open!: number;
  @ApiProperty(countsOf(TASK_STATUSES)) byStatus!: Record<string, number>;
  @ApiProperty({ description: 'Distinct assignees of the open tasks.' }) openAssignees!: number;
  @ApiProperty({ type: String, nullable: true }) oldestOpenCreatedAt!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Seconds since the oldest open task opened.' }) oldestOpenAgeSeconds!: number | null;
}

class DefinitionStatistics {
  @ApiProperty({ description: 'Definition keys with something published.' }) keys!: number;
  @ApiProperty() versions!: number;
  @ApiProperty() bindings!: number;
  @ApiProperty() grayscaleBindings!: number;
  @ApiProperty() drafts!: number;
  @ApiProperty({ description: 'Versions that instances not yet ended run on.' }) versionsInUse!: number;
}

export class StatisticsResponse {
  @ApiProperty() tenantId!: string;
  @ApiProperty({ type: InstanceStatistics }) instances!: InstanceStatistics;
  @ApiProperty({ type: TaskStatistics }) tasks!: TaskStatistics;
  @ApiProperty({ type: DefinitionStatistics }) definitions!: DefinitionStatistics;
  @ApiProperty() generatedAt!: string;
}

class BindingAfterDeletion {
  @ApiProperty({ type: String, nullable: true }) activeDefinitionId!: string | null;
  @ApiProperty({ type: String, nullable: true }) previousDefinitionId!: string | null;
}

export class DefinitionDeletionResponse {
  @ApiProperty({ format: 'uuid' }) definitionId!: string;
  @ApiProperty() key!: string;
  @ApiProperty() version!: number;
  @ApiProperty() forced!: boolean;
  @ApiProperty({ type: [String], description: 'Instances a forced deletion terminated.' }) terminatedInstances!: string[];
  @ApiProperty({ description: 'Ended instances on the version, kept with their tasks and definition id.' }) keptInstances!: number;
  @ApiProperty({ description: 'Deployment history rows naming the version, deleted with it.' }) removedDeployments!: number;
  @ApiProperty({ type: BindingAfterDeletion, nullable: true, description: 'The key’s binding afterwards; null when the key has no active version.' })
  binding!: BindingAfterDeletion | null;
}

export class InstanceDeletionResponse {
  @ApiProperty({ format: 'uuid' }) instanceId!: string;
  @ApiProperty({ enum: INSTANCE_STATUSES }) status!: string;
  @ApiProperty() deletedTasks!: number;
}

export class VisitRefreshResponse {
  @ApiProperty({ format: 'uuid' }) instanceId!: string;
  @ApiProperty() nodeKey!: string;
  @ApiProperty() visit!: number;
  @ApiProperty({ type: [String], description: 'Who got a seat.' }) added!: string[];
  @ApiProperty({ type: [String], description: 'Who lost their seat (their open task cancelled).' }) removed!: string[];
  @ApiProperty({ type: [String] }) openedTasks!: string[];
  @ApiProperty({ type: [String] }) cancelledTasks!: string[];
  @ApiProperty({ type: [String], description: 'The node visit’s seats afterwards.' }) seats!: string[];
}

class RoleRefreshResult {
  @ApiProperty({ enum: ['refreshed', 'unchanged', 'failed'] }) outcome!: string;
  @ApiProperty({ format: 'uuid' }) instanceId!: string;
  @ApiProperty() nodeKey!: string;
  @ApiPropertyOptional({ description: 'The fields of a visit refresh, unless failed.' }) visit?: number;
  @ApiPropertyOptional({ type: [String] }) added?: string[];
  @ApiPropertyOptional({ type: [String] }) removed?: string[];
  @ApiPropertyOptional({ type: [String] }) openedTasks?: string[];
  @ApiPropertyOptional({ type: [String] }) cancelledTasks?: string[];
  @ApiPropertyOptional({ type: [String] }) seats?: string[];
  @ApiPropertyOptional({ description: 'For a failed visit: its problem’s status.' }) status?: number;
  @ApiPropertyOptional() code?: string;
  @ApiPropertyOptional() detail?: string;
}

export class RoleRefreshResponse {
  @ApiProperty() role!: string;
  @ApiProperty({ type: [RoleRefreshResult] }) results!: RoleRefreshResult[];
  @ApiProperty() refreshed!: number;
  @ApiProperty() failed!: number;
}

export { InstanceResponse };
