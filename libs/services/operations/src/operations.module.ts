import { Module } from '@nestjs/common';
import { DiagnosticsModule } from './diagnostics/diagnostics.module';
import { JobsModule } from './jobs/jobs.module';

/** Wires operations: each folder owns its module. */
@Module({ imports: [JobsModule, DiagnosticsModule] })
export class OperationsModule {}
