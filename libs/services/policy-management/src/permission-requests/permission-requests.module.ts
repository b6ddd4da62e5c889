import { Module } from '@nestjs/common';
import { ConfigModule } from '@lp/platform/config';
import { PolicyManagementConfig, policyManagementConfig } from '../policy-management.config';
import { DirectPermissionRequestApprovals, PermissionRequestApprovals, WorkflowPermissionRequestApprovals } from './permission-request-approvals';
import { PermissionRequestDecisions } from './permission-request-decisions';
import { PermissionRequestWorkflowListener } from './permission-request-workflow.listener';
import { PermissionRequestsController } from './permission-requests.controller';
import { PermissionRequestsRepository } from './permission-requests.repository';
import { PermissionRequestsService } from './permission-requests.service';

@Module({
  imports: [ConfigModule.forRoot(policyManagementConfig)],
  controllers: [PermissionRequestsController],
  providers: [
    PermissionRequestsService,
    PermissionRequestDecisions,
    PermissionRequestsRepository,
    // Always listening: a request that has a workflow instance is decided by it whatever the switch says now.
    PermissionRequestWorkflowListener,
    {
      provide: PermissionRequestApprovals,
      inject: [policyManagementConfig.token],
      useFactory: (config: PolicyManagementConfig) =>
        config.PERMISSION_REQUEST_APPROVALS === 'direct' ? new DirectPermissionRequestApprovals() : new WorkflowPermissionRequestApprovals(),
    },
  ],
  exports: [PermissionRequestDecisions],
})
export class PermissionRequestsModule {}
