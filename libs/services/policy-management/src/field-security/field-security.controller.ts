import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { AuthorizationAction, GovernanceResources, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { Authorize } from '@lp/authz-guard';
import { EffectiveFieldPolicyResponse, FieldPolicyPage, FieldPolicyResponse } from './dto/field-policy.response';
import { EffectiveFieldPolicyQuery, ListFieldPoliciesQuery } from './dto/list-field-policies.query';
import { PutFieldPolicyDto } from './dto/put-field-policy.dto';
import { FieldSecurityService } from './field-security.service';

const fieldSecurity = { module: 'authorization', resource: GovernanceResources.fieldSecurity } as const;

@ApiTags('field-security')
@ApiBearerAuth()
@Controller('api/authorization/field-security')
export class FieldSecurityController {
  constructor(private readonly fieldSecurity: FieldSecurityService) {}

  @Get()
  @Authorize({ ...fieldSecurity, action: AuthorizationAction.View })
  @ApiOkResponse({ type: FieldPolicyPage })
  list(@Caller() caller: TrustedCaller, @Query() query: ListFieldPoliciesQuery) {
    return this.fieldSecurity.list(caller.tenantId, query);
  }

  @Get('effective')
  @Authorize({ ...fieldSecurity, action: AuthorizationAction.View })
  @ApiOkResponse({ type: EffectiveFieldPolicyResponse, description: 'Per restricted field, the strictest effect across the subject’s roles.' })
  effective(@Caller() caller: TrustedCaller, @Query() query: EffectiveFieldPolicyQuery) {
    return this.fieldSecurity.effective(caller.tenantId, query);
  }

  @Put()
  @HttpCode(200)
  @Authorize({ ...fieldSecurity, action: AuthorizationAction.Manage })
  @ApiOkResponse({ type: FieldPolicyResponse, description: 'The policy as it now stands (created, changed or already so).' })
  @ApiUnprocessableEntityResponse({ description: 'Authorization.FieldSecurity.RoleUnknown: no role with that id in the tenant.' })
  put(@Caller() caller: TrustedCaller, @Body() dto: PutFieldPolicyDto) {
    return this.fieldSecurity.put(caller, dto);
  }

  @Delete(':policyId')
  @HttpCode(204)
  @Authorize({ ...fieldSecurity, action: AuthorizationAction.Manage })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'No field policy with that id in the tenant.' })
  async remove(@Caller() caller: TrustedCaller, @Param('policyId') policyId: string): Promise<void> {
    await this.fieldSecurity.remove(caller, policyId);
  }
}
