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
}

export class SimulationResponse {
  @ApiProperty({ type: String, isArray: true, description: 'Node keys in the order they are reached.' }) path!: string[];
  @ApiProperty({ type: SimulatedTaskResponse, isArray: true }) tasks!: SimulatedTaskResponse[];
  @ApiProperty() outcome!: string;
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
