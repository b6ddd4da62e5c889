import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { AdaptersReportResponse, ConfigReportResponse, ConnectorsReportResponse, GovernanceReportResponse } from './dto/diagnostics.response';
import { FleetDiagnosticsService } from './fleet-diagnostics.service';

/** The spec does not name the permission (§5 rule 4): one platform-level view permission for all four reports. */
const VIEW = { module: 'operations', resource: 'diagnostics', action: AuthorizationAction.View } as const;

@ApiTags('diagnostics')
@ApiBearerAuth()
@ApiForbiddenResponse({ description: 'Authorization.Denied: the caller lacks operations.diagnostics.view (platform level)' })
@Controller('api/operations')
export class DiagnosticsController {
  constructor(private readonly fleet: FleetDiagnosticsService) {}

  @Get('governance')
  @Authorize(VIEW)
  @ApiOperation({ summary: "Each service's modules, their direct imports, missing dependencies, cycles and the Mermaid graph" })
  @ApiOkResponse({ type: GovernanceReportResponse })
  governance(@Caller() caller: TrustedCaller): Promise<GovernanceReportResponse> {
    return this.fleet.gather('governance', caller);
  }

  @Get('adapters')
  @Authorize(VIEW)
  @ApiOperation({ summary: "Each service's ports, what resolves for them and its status by type-name prefix" })
  @ApiOkResponse({ type: AdaptersReportResponse })
  adapters(@Caller() caller: TrustedCaller): Promise<AdaptersReportResponse> {
    return this.fleet.gather('adapters', caller);
  }

  @Get('connectors')
  @Authorize(VIEW)
  @ApiOperation({ summary: "Each service's connector readiness (8 connectors; no connectivity probe)" })
  @ApiOkResponse({ type: ConnectorsReportResponse })
  connectors(@Caller() caller: TrustedCaller): Promise<ConnectorsReportResponse> {
    return this.fleet.gather('connectors', caller);
  }

  @Get('config')
  @Authorize(VIEW)
  @ApiOperation({ summary: "Each service's declared configuration keys: missing, too-short or configured (a secret shows only its length)" })
  @ApiOkResponse({ type: ConfigReportResponse })
  config(@Caller() caller: TrustedCaller): Promise<ConfigReportResponse> {
    return this.fleet.gather('config', caller);
  }
}
