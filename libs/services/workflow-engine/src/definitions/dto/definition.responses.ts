import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import { BINDING_STATUSES, type BindingStatus, DEPLOYMENT_ACTIONS, type DeploymentAction, VERSION_SOURCES, type VersionSource } from '../../store';

export class DraftResponse {
  @ApiProperty() key!: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Send it back with the next save.' }) revision!: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) definition!: Record<string, unknown>;
  @ApiProperty() updatedBy!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class DefinitionProblemResponse {
  @ApiProperty({ example: 'Workflow.Definition.UnreachableNode' }) code!: string;
  @ApiProperty() message!: string;
  @ApiPropertyOptional() nodeKey?: string;
  @ApiPropertyOptional() path?: string;
}

export class ValidationResponse {
  @ApiProperty() valid!: boolean;
  @ApiProperty({ type: DefinitionProblemResponse, isArray: true }) problems!: DefinitionProblemResponse[];
}

export class SimulatedTaskResponse {
  @ApiProperty() nodeKey!: string;
  @ApiProperty({ type: String, isArray: true }) assignees!: string[];
  @ApiProperty({ enum: ['approved', 'rejected', 'pending', 'cancelled'] }) status!: string;
  @ApiProperty({ type: 'integer', description: '1 on the first visit of the node, 2 after a rejection brought the flow back, ...' }) visit!: number;
}

export class SimulatedDecisionResponse {
  @ApiProperty() gateway!: string;
  @ApiProperty({ type: 'integer' }) branch!: number;
  @ApiPropertyOptional() branchKey?: string;
  @ApiProperty({ enum: ['condition', 'default'] }) by!: string;
}

export class SimulatedReturnResponse {
  @ApiProperty() from!: string;
  @ApiProperty() to!: string;
}

export class SimulatedNotificationResponse {
  @ApiProperty() nodeKey!: string;
  @ApiProperty({ type: String, isArray: true }) recipients!: string[];
}

export class SimulationErrorResponse {
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
  @ApiPropertyOptional() nodeKey?: string;
}

/** The engine's simulation result as it is (src/engine/simulation.ts). */
export class SimulationResponse {
  @ApiProperty({ type: String, isArray: true, description: 'Node keys in the order they are reached, starting with `start`.' }) path!: string[];
  @ApiProperty({ type: SimulatedTaskResponse, isArray: true }) tasks!: SimulatedTaskResponse[];
  @ApiProperty({ enum: ['approved', 'rejected', 'waiting', 'failed'] }) outcome!: string;
  @ApiProperty({ type: String, isArray: true, description: 'Nodes the instance waits at.' }) waitingAt!: string[];
  @ApiProperty({ type: SimulatedDecisionResponse, isArray: true, description: 'The branch each exclusive gateway took.' })
  decisions!: SimulatedDecisionResponse[];
  @ApiProperty({ type: String, isArray: true, description: 'Nodes passed without a task (no assignee under `auto-pass`).' }) autoPassed!: string[];
  @ApiProperty({ type: SimulatedReturnResponse, isArray: true, description: 'Rejections that sent the instance back.' }) returns!: SimulatedReturnResponse[];
  @ApiProperty({ type: SimulatedNotificationResponse, isArray: true }) notifications!: SimulatedNotificationResponse[];
  @ApiPropertyOptional({ type: SimulationErrorResponse, description: 'Why the simulation stopped, when the outcome is `failed`.' })
  error?: SimulationErrorResponse;
}

export class VersionSummary {
  @ApiProperty({ format: 'uuid', description: 'The definition id (`/definitions/versions/{definitionId}`).' }) id!: string;
  @ApiProperty() key!: string;
  @ApiProperty({ type: 'integer', minimum: 1 }) version!: number;
  @ApiProperty({ description: 'SHA-256 (hex) of the canonical JSON (keys sorted).' }) checksum!: string;
  @ApiProperty({ enum: VERSION_SOURCES }) source!: VersionSource;
  @ApiProperty() createdBy!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class VersionResponse extends VersionSummary {
  @ApiProperty({ type: 'object', additionalProperties: true }) definition!: Record<string, unknown>;
}

export class VersionPage extends PageMeta {
  @ApiProperty({ type: VersionSummary, isArray: true, description: 'Newest first.' }) items!: VersionSummary[];
}

export class BindingResponse {
  @ApiProperty() key!: string;
  @ApiProperty({ enum: BINDING_STATUSES, description: '`grayscale` after a grayscale switch until complete-grayscale; `active` otherwise.' })
  status!: BindingStatus;
  @ApiProperty({ type: VersionSummary }) active!: VersionSummary;
  @ApiProperty({ type: VersionSummary, nullable: true, description: 'What rollback restores; null when there is nothing to roll back to.' })
  previous!: VersionSummary | null;
  @ApiProperty() updatedBy!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class ActiveDefinitionResponse extends VersionResponse {
  @ApiProperty({ enum: BINDING_STATUSES }) bindingStatus!: BindingStatus;
}

export class PublishResponse {
  @ApiProperty({ type: VersionSummary, description: 'The new immutable version.' }) version!: VersionSummary;
  @ApiProperty({ type: BindingResponse }) binding!: BindingResponse;
}

export class DeploymentEntryResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: DEPLOYMENT_ACTIONS }) action!: DeploymentAction;
  @ApiProperty({ format: 'uuid', nullable: true }) fromVersionId!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) fromVersion!: number | null;
  @ApiProperty({ format: 'uuid' }) toVersionId!: string;
  @ApiProperty({ type: 'integer' }) toVersion!: number;
  @ApiProperty() actor!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

export class DeploymentHistoryPage extends PageMeta {
  @ApiProperty({ type: DeploymentEntryResponse, isArray: true, description: 'Newest first.' }) items!: DeploymentEntryResponse[];
}

export class DeploymentsResponse {
  @ApiProperty({ type: BindingResponse }) binding!: BindingResponse;
  @ApiProperty({ type: DeploymentHistoryPage }) history!: DeploymentHistoryPage;
}
