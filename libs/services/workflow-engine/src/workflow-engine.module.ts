import { Module } from '@nestjs/common';
import { DefinitionsModule } from './definitions/definitions.module';
import { RuntimeFeatureModule } from './runtime-feature/runtime-feature.module';

/** Wires workflow-engine: each folder owns its module. */
@Module({ imports: [RuntimeFeatureModule, DefinitionsModule] })
export class WorkflowEngineModule {}
