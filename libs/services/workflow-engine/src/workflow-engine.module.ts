import { Module } from '@nestjs/common';

/** Wires workflow-engine: each folder owns its module. */
@Module({ imports: [] })
export class WorkflowEngineModule {}
