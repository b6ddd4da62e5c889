import { Module } from '@nestjs/common';
import { DiagnosticsModule } from './diagnostics/diagnostics.module';
import { JobsModule } from './jobs/jobs.module';
import { TenantsModule } from './tenants/tenants.module';

/** Wires operations: each folder owns its module. */
@Module({ imports: [JobsModule, TenantsModule, DiagnosticsModule] })
export class OperationsModule {}
