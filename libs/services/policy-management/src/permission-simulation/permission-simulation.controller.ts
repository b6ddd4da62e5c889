import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, GovernanceResources, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { Authorize } from '@lp/authz-guard';
import { EvaluateSimulationDto, ReplaySimulationDto } from './dto/simulation.dto';
import { ReplayResultResponse, SimulatedDecisionResponse } from './dto/simulation.response';
import { PermissionSimulationService } from './permission-simulation.service';

const VIEW = { module: 'authorization', resource: GovernanceResources.permissionSimulation, action: AuthorizationAction.View } as const;

/** POST because the question has a body; nothing is written, so both answer 200. */
@ApiTags('permission-simulation')
@ApiBearerAuth()
@Controller('api/authorization/permission-simulation')
export class PermissionSimulationController {
  constructor(private readonly simulation: PermissionSimulationService) {}

  @Post('evaluate')
  @HttpCode(HttpStatus.OK)
  @Authorize(VIEW)
  @ApiOperation({
    summary: 'Decide for a user, application or delegated caller of the tenant with proposed changes applied (nothing written, cached or audited)',
  })
  @ApiOkResponse({ type: SimulatedDecisionResponse })
  evaluate(@Caller() caller: TrustedCaller, @Body() body: EvaluateSimulationDto) {
    return this.simulation.evaluate(caller, body);
  }

  @Post('replay')
  @HttpCode(HttpStatus.OK)
  @Authorize(VIEW)
  @ApiOperation({ summary: "Re-decide a sample of the tenant's audited decisions under proposed changes and list the flips" })
  @ApiOkResponse({ type: ReplayResultResponse })
  replay(@Caller() caller: TrustedCaller, @Body() body: ReplaySimulationDto) {
    return this.simulation.replay(caller, body);
  }
}
