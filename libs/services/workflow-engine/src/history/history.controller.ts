import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { AuthorizationAction, Page, TrustedCaller } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { PageQuery, SchemaValidationPipe, TimeoutPolicy } from '@lp/platform/http';
import { SetRetention, SetRetentionDto, setRetentionSchema } from './dto/history.dto';
import {
  BusinessKeyStatusResponse,
  HistorySummaryResponse,
  InstanceEventPage,
  InstanceEventResponse,
  RetentionResponse,
  TrailEntryResponse,
  TrailPage,
} from './dto/history.responses';
import { HistoryInstanceFactsLoader } from './history-facts.loader';
import { HistoryService } from './history.service';

const INSTANCE = { module: 'workflow', resource: 'instance' } as const;
const VIEW = { ...INSTANCE, action: AuthorizationAction.View } as const;
const DENIED = ApiForbiddenResponse({ description: 'Authorization.Denied: the permission is missing; nothing is written.' });
const NO_INSTANCE = ApiNotFoundResponse({ description: 'NotFound: no such instance (hot or archived) in the caller’s tenant.' });
const NO_BUSINESS_KEY = ApiNotFoundResponse({
  description: 'NotFound: no instance of this business key in the caller’s tenant (another tenant’s key answers exactly the same).',
});

/**
 * Workflow history under /api/workflow/history (spec §4 "Workflow history", docs/history.md):
 * projections of the instance event log, for hot and archived instances alike, always within the
 * caller's tenant (the business-key routes take no tenant: it is the token's). Archive and the
 * retention setting are writes: `userPolicy`, `StandardCommand`, and the `workflow.runtime` gate.
 */
@ApiTags('Workflow-History')
@ApiBearerAuth()
@Controller('api/workflow/history')
export class HistoryController {
  constructor(private readonly history: HistoryService) {}

  @Get('instances/:id/timeline')
  @Authorize({ ...VIEW, facts: HistoryInstanceFactsLoader })
  @ApiOperation({ summary: 'The instance’s event log in order (seq), paged.' })
  @ApiOkResponse({ type: InstanceEventPage })
  @ApiBadRequestResponse({ description: 'Validation.Failed (pageIndex, pageSize 1–100).' })
  @NO_INSTANCE
  @DENIED
  timeline(@Caller() caller: TrustedCaller, @Param('id') id: string, @Query() page: PageQuery): Promise<Page<InstanceEventResponse>> {
    return this.history.timeline(caller, id, page);
  }

  @Get('instances/:id/trail')
  @Authorize({ ...VIEW, facts: HistoryInstanceFactsLoader })
  @ApiOperation({
    summary:
      'The activity trail: the human actions (votes, transfers, delegations, withdrawals, administrative operations) with actor, time and comment, paged.',
  })
  @ApiOkResponse({ type: TrailPage })
  @ApiBadRequestResponse({ description: 'Validation.Failed (pageIndex, pageSize 1–100).' })
  @NO_INSTANCE
  @DENIED
  trail(@Caller() caller: TrustedCaller, @Param('id') id: string, @Query() page: PageQuery): Promise<Page<TrailEntryResponse>> {
    return this.history.trail(caller, id, page);
  }

  @Get('instances/:id')
  @Authorize({ ...VIEW, facts: HistoryInstanceFactsLoader })
  @ApiOperation({ summary: 'The instance’s history summary: status, start, end, duration, tasks by status, current nodes, who decided each node.' })
  @ApiOkResponse({ type: HistorySummaryResponse })
  @NO_INSTANCE
  @DENIED
  summary(@Caller() caller: TrustedCaller, @Param('id') id: string): Promise<HistorySummaryResponse> {
    return this.history.summary(caller, id);
  }

  @Post('instances/:id/archive')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Manage, facts: HistoryInstanceFactsLoader })
  @TimeoutPolicy('StandardCommand')
  @ApiOperation({
    summary:
      'Move an ended instance, its tasks and its events out of the hot tables (audited); it stays readable here. Archiving an archived instance answers it unchanged.',
  })
  @ApiOkResponse({ type: HistorySummaryResponse, description: 'The archived instance’s summary (`archived: true`).' })
  @ApiConflictResponse({ description: 'problem+json: Workflow.InvalidState (Running or Suspended); nothing is moved.' })
  @NO_INSTANCE
  @ApiForbiddenResponse({ description: 'Authorization.Denied (no `workflow.instance.manage`) or Feature.Disabled (`workflow.runtime` off); nothing is moved.' })
  archive(@Caller() caller: TrustedCaller, @Param('id') id: string): Promise<HistorySummaryResponse> {
    return this.history.archive(caller, id);
  }

  @Get('business/:businessKey/timeline')
  @Authorize(VIEW)
  @ApiOperation({ summary: 'The events of every instance of the business key in the caller’s tenant, across definitions, newest first, paged.' })
  @ApiOkResponse({ type: InstanceEventPage })
  @ApiBadRequestResponse({ description: 'Validation.Failed (pageIndex, pageSize 1–100; businessKey 1–200 characters).' })
  @NO_BUSINESS_KEY
  @DENIED
  businessTimeline(@Caller() caller: TrustedCaller, @Param('businessKey') businessKey: string, @Query() page: PageQuery): Promise<Page<InstanceEventResponse>> {
    return this.history.businessTimeline(caller, businessKey, page);
  }

  @Get('business/:businessKey/status')
  @Authorize(VIEW)
  @ApiOperation({ summary: 'The business key’s status: its newest instance’s status, plus its instances counted by status.' })
  @ApiOkResponse({ type: BusinessKeyStatusResponse })
  @ApiBadRequestResponse({ description: 'Validation.Failed (businessKey 1–200 characters).' })
  @NO_BUSINESS_KEY
  @DENIED
  businessStatus(@Caller() caller: TrustedCaller, @Param('businessKey') businessKey: string): Promise<BusinessKeyStatusResponse> {
    return this.history.businessStatus(caller, businessKey);
  }

  @Get('retention')
  @Authorize(VIEW)
  @ApiOperation({ summary: 'How long the tenant’s archived history is kept after its instance ended.' })
  @ApiOkResponse({ type: RetentionResponse })
  @DENIED
  retention(@Caller() caller: TrustedCaller): Promise<RetentionResponse> {
    return this.history.retention(caller);
  }

  @Put('retention')
  @Authorize({ module: 'workflow', resource: 'management', action: AuthorizationAction.Manage })
  @TimeoutPolicy('StandardCommand')
  @ApiOperation({ summary: 'Set the tenant’s retention of archived history in days (null: back to the default); the retention job purges by it.' })
  @ApiBody({ type: SetRetentionDto })
  @ApiOkResponse({ type: RetentionResponse })
  @ApiBadRequestResponse({ description: 'Validation.Failed (retentionDays 1–36500 or null).' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied (no `workflow.management.manage`) or Feature.Disabled; nothing is written.' })
  setRetention(@Caller() caller: TrustedCaller, @Body(new SchemaValidationPipe(setRetentionSchema)) body: SetRetention): Promise<RetentionResponse> {
    return this.history.setRetention(caller, body);
  }
}
