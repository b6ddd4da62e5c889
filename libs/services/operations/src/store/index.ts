import { JobDefinitionEntity } from './job-definition.entity';
import { JobExecutionEntity } from './job-execution.entity';
import { TenantEntity } from './tenant.entity';

export * from './job-definition.entity';
export * from './job-execution.entity';
export * from './tenant.entity';

/** Every entity of the operations schemas (`ops`, and `platform` for tenants). */
export const OPERATIONS_ENTITIES = [JobDefinitionEntity, JobExecutionEntity, TenantEntity];
