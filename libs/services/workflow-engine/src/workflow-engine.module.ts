import { Module } from '@nestjs/common';
import { RuntimeFeatureModule } from './runtime-feature/runtime-feature.module';

/** Wires workflow-engine: each folder owns its module. */
@Module({ imports: [RuntimeFeatureModule] })
export class WorkflowEngineModule {}
