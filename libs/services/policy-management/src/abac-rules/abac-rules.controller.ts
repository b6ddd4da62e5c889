import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { PageQuery } from '@lp/platform/http';
import { Authorize } from '@lp/authz-guard';
import { AbacRulePage, AbacRuleResponse } from './dto/abac-rule.response';
import { SaveAbacRuleDto } from './dto/save-abac-rule.dto';
import { AbacRulesService } from './abac-rules.service';

/** Tenant ABAC rules (spec §4). The tenant is always the caller's; see docs/abac-rules.md. */
@ApiTags('abac-rules')
@ApiBearerAuth()
@Controller('api/authorization/abac-rules')
export class AbacRulesController {
  constructor(private readonly rules: AbacRulesService) {}

  @Get()
  @Authorize({ module: 'authorization', resource: 'abac-rule', action: AuthorizationAction.View })
  @ApiOkResponse({ type: AbacRulePage, description: 'In evaluation order: priority ascending, then id.' })
  list(@Caller() caller: TrustedCaller, @Query() page: PageQuery) {
    return this.rules.list(caller.tenantId, page);
  }

  @Get(':ruleId')
  @Authorize({ module: 'authorization', resource: 'abac-rule', action: AuthorizationAction.View })
  @ApiOkResponse({ type: AbacRuleResponse, description: "One rule in the list's shape; 404 NotFound for an unknown, malformed or other tenant's id." })
  get(@Caller() caller: TrustedCaller, @Param('ruleId') ruleId: string): Promise<AbacRuleResponse> {
    return this.rules.get(caller.tenantId, ruleId);
  }

  @Post()
  @Authorize({ module: 'authorization', resource: 'abac-rule', action: AuthorizationAction.Create })
  @ApiCreatedResponse({ type: AbacRuleResponse })
  create(@Caller() caller: TrustedCaller, @Body() body: SaveAbacRuleDto) {
    return this.rules.create(caller, body);
  }

  @Put(':ruleId')
  @Authorize({ module: 'authorization', resource: 'abac-rule', action: AuthorizationAction.Update })
  @ApiOkResponse({ type: AbacRuleResponse })
  update(@Caller() caller: TrustedCaller, @Param('ruleId') ruleId: string, @Body() body: SaveAbacRuleDto) {
    return this.rules.update(caller, ruleId, body);
  }

  @Delete(':ruleId')
  @HttpCode(204)
  @Authorize({ module: 'authorization', resource: 'abac-rule', action: AuthorizationAction.Delete })
  @ApiNoContentResponse()
  async delete(@Caller() caller: TrustedCaller, @Param('ruleId') ruleId: string): Promise<void> {
    await this.rules.delete(caller, ruleId);
  }
}
