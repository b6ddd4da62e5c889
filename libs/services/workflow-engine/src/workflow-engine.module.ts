import { Module } from '@nestjs/common';
import { DefinitionsModule } from './definitions/definitions.module';

/** Wires workflow-engine: each folder owns its module. */
@Module({ imports: [DefinitionsModule] })
export class WorkflowEngineModule {}
