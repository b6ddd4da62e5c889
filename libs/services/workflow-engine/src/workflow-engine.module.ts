import { Module } from '@nestjs/common';
import { DefinitionsModule } from './definitions/definitions.module';
import { ReportsModule } from './reports/reports.module';
import { ManagementModule } from './management/management.module';
import { HistoryModule } from './history/history.module';
import { PermissionRequestFlowModule } from './permission-request-flow/permission-request-flow.module';
import { RuntimeModule } from './runtime/runtime.module';
import { RuntimeFeatureModule } from './runtime-feature/runtime-feature.module';
import { TimeoutsModule } from './timeouts/timeouts.module';

/** Wires workflow-engine: each folder owns its module. */
@Module({
  imports: [
    RuntimeFeatureModule,
    DefinitionsModule,
    RuntimeModule,
    PermissionRequestFlowModule,
    TimeoutsModule,
    ReportsModule,
    ManagementModule,
    HistoryModule,
  ],
})
export class WorkflowEngineModule {}
