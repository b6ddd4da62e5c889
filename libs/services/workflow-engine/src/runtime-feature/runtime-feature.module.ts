import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { WorkflowRuntimeGuard } from './workflow-runtime.guard';

/** The `workflow.runtime` gate on every write route of the service. */
@Module({ providers: [{ provide: APP_GUARD, useClass: WorkflowRuntimeGuard }] })
export class RuntimeFeatureModule {}
