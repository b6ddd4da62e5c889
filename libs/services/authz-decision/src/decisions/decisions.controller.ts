import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { AuthorizationAction, GovernanceResources, TrustedCaller, validateDecisionRequest } from '@lp/contracts';
import { Authorize, SkipAuthorization } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { USER_POLICY } from '@lp/platform/http';
import { CorrelationContext } from '@lp/platform/observability';
import { DecisionBatchDto, DecisionQueryDto } from './dto/decision-query.dto';
import { DecisionExplanationResponse } from './dto/decision-explanation.response';
import { DecisionBatchResponse, DecisionResponse } from './dto/decision.response';
import { decidedOrUnavailable, unlessUnavailable } from './decision-outage';
import { DecisionService } from './decision.service';

/**
 * Decisions for the token's own caller, for gateway clients and debugging. The caller and tenant
 * come from the token; the body only says what the caller wants to know about. These are queries
 * sent as POST (they carry a body), so the `userPolicy` write limit does not apply to them.
 */
@ApiTags('decisions')
@SkipThrottle({ [USER_POLICY]: true })
@ApiBearerAuth()
@Controller('api/authorization/decisions')
export class DecisionsController {
  constructor(private readonly decisions: DecisionService) {}

  @Post()
  @HttpCode(200)
  @SkipAuthorization("answers for the token's own caller only; a Deny is an answer, not an action")
  @ApiOkResponse({ type: DecisionResponse })
  async decide(@Caller() caller: TrustedCaller, @Body() body: DecisionQueryDto): Promise<DecisionResponse> {
    return DecisionResponse.of(
      await decidedOrUnavailable(
        this.decisions.decide(
          validateDecisionRequest({ caller, resource: { ...body.resource }, action: body.action, correlationId: CorrelationContext.current() }),
        ),
      ),
    );
  }

  @Post('batch')
  @HttpCode(200)
  @SkipAuthorization("answers for the token's own caller only; a Deny is an answer, not an action")
  @ApiOkResponse({ type: DecisionBatchResponse })
  async decideBatch(@Caller() caller: TrustedCaller, @Body() body: DecisionBatchDto): Promise<DecisionBatchResponse> {
    const correlationId = CorrelationContext.current();
    const results = await decidedOrUnavailable(
      this.decisions.decideBatch(
        body.items.map((item) => validateDecisionRequest({ caller, resource: { ...item.resource }, action: item.action, correlationId })),
      ),
    );
    return { items: results.map(DecisionResponse.of) };
  }

  /**
   * The full account of the caller's own decision: every evaluator's inputs, the merge and the
   * DataScope resolution. Decided afresh (never cached) and audited like any decision, so it is the
   * token's own caller only: explaining another subject's live decision would write audit records
   * in their name. Administrators use the simulator for other subjects. The inputs show the tenant's
   * policy (ABAC rules and their checks, role scopes), so it takes the simulator's permission: a
   * diagnostic for those who may already see the policy, not for every user.
   */
  @Post('explain')
  @HttpCode(200)
  @Authorize({ module: 'authorization', resource: GovernanceResources.permissionSimulation, action: AuthorizationAction.View })
  @ApiOkResponse({ type: DecisionExplanationResponse })
  async explain(@Caller() caller: TrustedCaller, @Body() body: DecisionQueryDto): Promise<DecisionExplanationResponse> {
    return DecisionExplanationResponse.of(
      await unlessUnavailable(
        this.decisions.explain(
          validateDecisionRequest({ caller, resource: { ...body.resource }, action: body.action, correlationId: CorrelationContext.current() }),
        ),
      ),
    );
  }
}
