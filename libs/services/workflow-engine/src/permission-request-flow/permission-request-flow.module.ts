import { Module } from '@nestjs/common';
import { DefinitionsModule } from '../definitions/definitions.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { PermissionRequestFlowListener } from './permission-request-flow.listener';
import { PermissionRequestFlow } from './permission-request-flow.service';

/** The approval of policy-management's permission requests on the engine (docs/permission-request-flow.md). */
@Module({
  imports: [DefinitionsModule, RuntimeModule],
  providers: [PermissionRequestFlow, PermissionRequestFlowListener],
})
export class PermissionRequestFlowModule {}
