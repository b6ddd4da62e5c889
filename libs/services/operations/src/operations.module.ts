import { Module } from '@nestjs/common';
import { JobsModule } from './jobs/jobs.module';

/** Wires operations: each folder owns its module. */
@Module({ imports: [JobsModule] })
export class OperationsModule {}
