import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiQuery,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthorizationAction, problemsOf, TrustedCaller, ValidationError } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { SchemaValidationPipe, TimeoutPolicy } from '@lp/platform/http';
import { LegacyImport, LegacyImportDto } from './dto/legacy-import.dto';
import { LegacyImportPipe } from './dto/legacy-import.pipe';
import {
  DefinitionDeletionResponse,
  DeleteDefinitionQuery,
  deleteDefinitionQuerySchema,
  InstanceDeletionResponse,
  InstanceResponse,
  RoleRefreshResponse,
  roleNameSchema,
  StatisticsResponse,
  VisitRefreshResponse,
} from './dto/management.dto';
import { CandidateRefreshService } from './candidate-refresh.service';
import { LegacyImportService } from './legacy-import.service';
import { ManagementService } from './management.service';

/** Every management route but the import: one high-privilege, tenant-level permission (audited writes). */
const MANAGE = { module: 'workflow', resource: 'management', action: AuthorizationAction.Manage } as const;
const DENIED = ApiForbiddenResponse({
  description: 'Authorization.Denied (no permission) or Feature.Disabled (`workflow.runtime` off, writes); nothing is written.',
});

/**
 * Workflow management under /api/workflow/management (spec §4 "Workflow management",
 * docs/management.md): limited to high-privilege roles and audited. The tenant is the caller's on
 * every route but the import, whose body names it (the spec's one exception), hence its
 * platform-level permission.
 */
@ApiTags('Workflow-Management')
@ApiBearerAuth()
@Controller('api/workflow/management')
export class ManagementController {
  constructor(
    private readonly management: ManagementService,
    private readonly imports: LegacyImportService,
    private readonly refresh: CandidateRefreshService,
  ) {}

  @Post('import')
  @Authorize({ module: 'workflow', resource: 'legacy-import', action: AuthorizationAction.Create })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Import one legacy instance into the tenant the body names (platform level); idempotent by (tenant, sourceId), all rows or none.' })
  @ApiBody({ type: LegacyImportDto })
  @ApiCreatedResponse({ type: InstanceResponse, description: 'Imported.' })
  @ApiOkResponse({ type: InstanceResponse, description: 'This source was imported before with the same body: that instance, unchanged.' })
  @ApiBadRequestResponse({ description: 'Validation.Failed, per field.' })
  @ApiConflictResponse({ description: 'Workflow.Import.SourceConflict (same sourceId, another body) or Workflow.Import.BusinessKeyTaken.' })
  @ApiPayloadTooLargeResponse({ description: 'Workflow.Import.TooLarge (body or task count), Workflow.Runtime.VariablesTooLarge.' })
  @ApiUnprocessableEntityResponse({ description: 'Workflow.Import.Invalid: no such version in the tenant, tasks that do not fit it; `errors` per field.' })
  @DENIED
  async import(
    @Caller() caller: TrustedCaller,
    @Body(new LegacyImportPipe()) body: LegacyImport,
    @Res({ passthrough: true }) res: Response,
  ): Promise<InstanceResponse> {
    const { instance, created } = await this.imports.import(caller, body);
    res.status(created ? 201 : 200);
    return instance;
  }

  @Get('statistics')
  @Authorize(MANAGE)
  @ApiOperation({ summary: 'Engine statistics of the caller’s tenant: instances by status, tasks, open-task age, definitions, versions, bindings.' })
  @ApiOkResponse({ type: StatisticsResponse })
  @DENIED
  statistics(@Caller() caller: TrustedCaller): Promise<StatisticsResponse> {
    return this.management.statistics(caller);
  }

  @Delete('definitions/:definitionId')
  @HttpCode(200)
  @Authorize(MANAGE)
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({
    summary:
      'Delete a definition version; refused while instances not yet ended run on it or a binding names it. `force=true` (platform administrators) terminates those instances and moves the binding.',
  })
  @ApiQuery({ name: 'force', required: false, enum: ['true', 'false'] })
  @ApiOkResponse({ type: DefinitionDeletionResponse })
  @ApiBadRequestResponse({ description: 'Validation.Failed (`force`).' })
  @ApiNotFoundResponse({ description: 'NotFound: no such version in the caller’s tenant.' })
  @ApiConflictResponse({ description: 'Workflow.Definition.InUse; nothing is written.' })
  @ApiForbiddenResponse({
    description: 'Authorization.Denied (no permission; `force` without `workflow.management.delete`), Feature.Disabled; nothing is written.',
  })
  deleteDefinition(
    @Caller() caller: TrustedCaller,
    @Param('definitionId') definitionId: string,
    @Query(new SchemaValidationPipe(deleteDefinitionQuerySchema)) query: DeleteDefinitionQuery,
  ): Promise<DefinitionDeletionResponse> {
    return this.management.deleteDefinition(caller, definitionId, query.force);
  }

  @Delete('instances/:instanceId')
  @HttpCode(200)
  @Authorize(MANAGE)
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Delete an ended instance (Approved, Rejected, Withdrawn, Terminated, Cancelled) and its tasks.' })
  @ApiOkResponse({ type: InstanceDeletionResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such instance in the caller’s tenant.' })
  @ApiConflictResponse({ description: 'Workflow.InvalidState: the instance has not ended; nothing is written.' })
  @DENIED
  deleteInstance(@Caller() caller: TrustedCaller, @Param('instanceId') instanceId: string): Promise<InstanceDeletionResponse> {
    return this.management.deleteInstance(caller, instanceId);
  }

  @Post('tasks/:taskId/refresh-candidates')
  @HttpCode(200)
  @Authorize(MANAGE)
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Re-resolve the assignees of the open task’s approval (a node assigning a role) and apply the difference to its seats.' })
  @ApiOkResponse({ type: VisitRefreshResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such task in the caller’s tenant.' })
  @ApiConflictResponse({ description: 'Workflow.Task.NotPending, Workflow.InvalidState; nothing is written.' })
  @ApiUnprocessableEntityResponse({ description: 'Workflow.Management.NoRoleAssignee, Workflow.Management.RefreshWouldDecide; nothing is written.' })
  @DENIED
  refreshTask(@Caller() caller: TrustedCaller, @Param('taskId') taskId: string): Promise<VisitRefreshResponse> {
    return this.refresh.byTask(caller, taskId);
  }

  @Post('roles/:roleId/refresh-candidates')
  @HttpCode(200)
  @Authorize(MANAGE)
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({
    summary:
      'Re-resolve every waiting approval whose node assigns the role (`roleId`: the role’s name, as definitions name it); a result per node visit, each instance in its own transaction.',
  })
  @ApiOkResponse({ type: RoleRefreshResponse })
  @ApiBadRequestResponse({ description: 'Validation.Failed (`roleId`: 1–100 characters).' })
  @DENIED
  refreshRole(@Caller() caller: TrustedCaller, @Param('roleId') roleId: string): Promise<RoleRefreshResponse> {
    const parsed = roleNameSchema.safeParse(roleId);
    if (!parsed.success) throw new ValidationError(problemsOf(parsed.error, 'roleId'));
    return this.refresh.byRole(caller, parsed.data);
  }
}
