import { Module } from '@nestjs/common';
import { JobsModule } from './jobs/jobs.module';
import { TenantsModule } from './tenants/tenants.module';

/** Wires operations: each folder owns its module. */
@Module({ imports: [JobsModule, TenantsModule] })
export class OperationsModule {}
