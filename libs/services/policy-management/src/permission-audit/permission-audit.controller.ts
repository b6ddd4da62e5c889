import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, GovernanceResources, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { Authorize } from '@lp/authz-guard';
import { DecisionAuditQuery } from './dto/decision-audit.query';
import { DecisionAuditItemResponse, DecisionAuditPage, DecisionRevisionsResponse, PolicyChangePage } from './dto/permission-audit.response';
import { PolicyChangeQuery } from './dto/policy-change.query';
import { PermissionAuditService } from './permission-audit.service';

const VIEW = { module: 'authorization', resource: GovernanceResources.permissionAudit, action: AuthorizationAction.View } as const;

@ApiTags('permission-audit')
@ApiBearerAuth()
// `revisions` reaches DecisionRevisionsResponse through `anyOf`, which does not register it.
@ApiExtraModels(DecisionRevisionsResponse)
@Controller('api/authorization/permission-audit')
export class PermissionAuditController {
  constructor(private readonly audit: PermissionAuditService) {}

  @Get('decisions')
  @Authorize(VIEW)
  @ApiOperation({ summary: "The tenant's authorization decisions, newest first" })
  @ApiOkResponse({ type: DecisionAuditPage })
  decisions(@Caller() caller: TrustedCaller, @Query() query: DecisionAuditQuery) {
    return this.audit.decisions(caller, query);
  }

  @Get('decisions/:decisionId')
  @Authorize(VIEW)
  @ApiOperation({ summary: "One decision of the tenant, as the list shows it; 404 NotFound for an unknown, malformed or other tenant's id" })
  @ApiOkResponse({ type: DecisionAuditItemResponse })
  decision(@Caller() caller: TrustedCaller, @Param('decisionId') decisionId: string) {
    return this.audit.decision(caller, decisionId);
  }

  @Get('changes')
  @Authorize(VIEW)
  @ApiOperation({ summary: "The tenant's policy changes (and global ones), newest first" })
  @ApiOkResponse({ type: PolicyChangePage })
  changes(@Caller() caller: TrustedCaller, @Query() query: PolicyChangeQuery) {
    return this.audit.changeLog(caller.tenantId, query);
  }
}
