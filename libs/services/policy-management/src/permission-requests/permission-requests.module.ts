import { Module } from '@nestjs/common';
import { DirectPermissionRequestApprovals, PermissionRequestApprovals } from './permission-request-approvals';
import { PermissionRequestDecisions } from './permission-request-decisions';
import { PermissionRequestsController } from './permission-requests.controller';
import { PermissionRequestsRepository } from './permission-requests.repository';
import { PermissionRequestsService } from './permission-requests.service';

@Module({
  controllers: [PermissionRequestsController],
  providers: [
    PermissionRequestsService,
    PermissionRequestDecisions,
    PermissionRequestsRepository,
    // Swap for a workflow adapter when approvals run through the workflow engine (see the port).
    { provide: PermissionRequestApprovals, useClass: DirectPermissionRequestApprovals },
  ],
  exports: [PermissionRequestDecisions],
})
export class PermissionRequestsModule {}
