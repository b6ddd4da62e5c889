import { Module } from '@nestjs/common';
import { DefinitionsModule } from './definitions/definitions.module';
import { HistoryModule } from './history/history.module';
import { PermissionRequestFlowModule } from './permission-request-flow/permission-request-flow.module';
import { RuntimeModule } from './runtime/runtime.module';
import { RuntimeFeatureModule } from './runtime-feature/runtime-feature.module';

/** Wires workflow-engine: each folder owns its module. */
@Module({ imports: [RuntimeFeatureModule, DefinitionsModule, RuntimeModule, PermissionRequestFlowModule, HistoryModule] })
export class WorkflowEngineModule {}
