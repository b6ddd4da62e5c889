import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CONNECTOR_NAMES,
  RUNTIME_LICENSE_STATES,
  type AdapterEntry,
  type ConfigKeyReport,
  type ConnectorEntry,
  type GovernanceModule,
  type GovernanceSnapshot,
} from '@lp/contracts';

/** How a service answered: `ok` (snapshot present), `unreachable` (no answer in time or no transport), `failed` (it answered with an error). */
export const SERVICE_ANSWER_STATUSES = ['ok', 'unreachable', 'failed'] as const;
export type ServiceAnswerStatus = (typeof SERVICE_ANSWER_STATUSES)[number];

const ADAPTER_STATUSES = ['Unavailable', 'Default', 'Production', 'Production (Local)', 'Unknown', ...RUNTIME_LICENSE_STATES];

abstract class ServiceAnswerResponse {
  @ApiProperty({ example: 'policy-management' }) service!: string;
  @ApiProperty({ enum: SERVICE_ANSWER_STATUSES }) status!: ServiceAnswerStatus;
  @ApiPropertyOptional({ description: 'Why there is no snapshot (unreachable or failed)' }) reason?: string;
}

export class GovernanceModuleResponse implements GovernanceModule {
  @ApiProperty({ example: 'RolesModule' }) name!: string;
  @ApiProperty({ type: [String], description: 'Modules it imports directly' }) imports!: string[];
}

export class GovernanceSnapshotResponse implements GovernanceSnapshot {
  @ApiProperty({ type: [GovernanceModuleResponse], description: 'Registered modules sorted by name; the total is the length' })
  modules!: GovernanceModuleResponse[];
  @ApiProperty({ type: [String] }) missingDependencies!: string[];
  @ApiProperty() hasCircularDependencies!: boolean;
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    description: 'Each cycle as its modules (a strongly connected component)',
  })
  cycles!: string[][];
  @ApiProperty({ description: 'Dependency graph in Mermaid syntax', example: 'graph TD\n  A["A"]\n  A --> B' }) graph!: string;
}

export class ServiceGovernanceResponse extends ServiceAnswerResponse {
  @ApiPropertyOptional({ type: GovernanceSnapshotResponse }) snapshot?: GovernanceSnapshotResponse;
}

export class AdapterResponse implements AdapterEntry {
  @ApiProperty({ example: 'KeyValueCache' }) port!: string;
  @ApiProperty({ enum: ['platform', 'service', 'discovered'] }) layer!: AdapterEntry['layer'];
  @ApiProperty({ type: String, nullable: true, example: 'RedisKeyValueCache' }) implementation!: string | null;
  @ApiProperty({ enum: ADAPTER_STATUSES, description: 'By name prefix, or the license provider’s own state' }) status!: AdapterEntry['status'];
  @ApiProperty({ enum: ['name-prefix', 'self-reported', 'absent'] }) classifiedBy!: AdapterEntry['classifiedBy'];
  @ApiProperty({ example: 'REDIS_URL set' }) reason!: string;
}

export class AdaptersSnapshotResponse {
  @ApiProperty({ type: [AdapterResponse] }) adapters!: AdapterResponse[];
}

export class ServiceAdaptersResponse extends ServiceAnswerResponse {
  @ApiPropertyOptional({ type: AdaptersSnapshotResponse }) snapshot?: AdaptersSnapshotResponse;
}

export class ConnectorResponse implements ConnectorEntry {
  @ApiProperty({ enum: CONNECTOR_NAMES }) connector!: ConnectorEntry['connector'];
  @ApiProperty({ enum: ['Legal', 'Tools'] }) group!: ConnectorEntry['group'];
  @ApiProperty({ type: String, nullable: true, example: 'http' }) provider!: string | null;
  @ApiProperty({ enum: ['Configured', 'NotConfigured', 'Unavailable'] }) status!: ConnectorEntry['status'];
  @ApiProperty() adapterRegistered!: boolean;
  @ApiProperty({ type: String, nullable: true, example: 'HttpGatewayConnector' }) adapterImplementation!: string | null;
  @ApiProperty({ example: 'CONNECTOR_OCR' }) configurationSection!: string;
  @ApiProperty({ enum: [true] }) changesRequireRestart!: true;
  @ApiProperty({ type: [String] }) dependentCapabilities!: string[];
  @ApiProperty() reason!: string;
}

export class ConnectorsSnapshotResponse {
  @ApiProperty({ type: [ConnectorResponse] }) connectors!: ConnectorResponse[];
}

export class ServiceConnectorsResponse extends ServiceAnswerResponse {
  @ApiPropertyOptional({ type: ConnectorsSnapshotResponse }) snapshot?: ConnectorsSnapshotResponse;
}

export class ConfigKeyResponse implements ConfigKeyReport {
  @ApiProperty({ example: 'JWT_SECRET' }) key!: string;
  @ApiProperty({ example: 'platform' }) owner!: string;
  @ApiProperty({ example: 'identity' }) group!: string;
  @ApiProperty() description!: string;
  @ApiProperty() required!: boolean;
  @ApiProperty() sensitive!: boolean;
  @ApiProperty({ enum: ['missing', 'too-short', 'configured'] }) status!: ConfigKeyReport['status'];
  @ApiPropertyOptional({ enum: ['env', 'default'] }) source?: 'env' | 'default';
  @ApiPropertyOptional({ description: 'Length of the effective value (the only thing shown of a secret)' }) length?: number;
  @ApiPropertyOptional({ description: 'The value, for non-sensitive keys only (a URL password masked)' }) value?: string;
}

export class ConfigSnapshotResponse {
  @ApiProperty({ type: [ConfigKeyResponse] }) keys!: ConfigKeyResponse[];
}

export class ServiceConfigResponse extends ServiceAnswerResponse {
  @ApiPropertyOptional({ type: ConfigSnapshotResponse }) snapshot?: ConfigSnapshotResponse;
}

abstract class FleetReportResponse {
  @ApiProperty({ format: 'date-time', description: 'When the report was gathered; nothing is kept between calls' }) generatedAt!: string;
}

export class GovernanceReportResponse extends FleetReportResponse {
  @ApiProperty({ type: [ServiceGovernanceResponse] }) services!: ServiceGovernanceResponse[];
}
export class AdaptersReportResponse extends FleetReportResponse {
  @ApiProperty({ type: [ServiceAdaptersResponse] }) services!: ServiceAdaptersResponse[];
}
export class ConnectorsReportResponse extends FleetReportResponse {
  @ApiProperty({ type: [ServiceConnectorsResponse] }) services!: ServiceConnectorsResponse[];
}
export class ConfigReportResponse extends FleetReportResponse {
  @ApiProperty({ type: [ServiceConfigResponse] }) services!: ServiceConfigResponse[];
}
