import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Caller } from '@lp/platform/auth';
import { Authorize } from '@lp/authz-guard';
import { FeatureList, FeatureResponse } from './dto/feature.response';
import { UpdateFeatureDto } from './dto/update-feature.dto';
import { FeaturesService } from './features.service';

/** Feature definitions with the caller's tenant overrides (spec §4). See docs/features.md. */
@ApiTags('features')
@ApiBearerAuth()
@Controller('api/authorization/features')
export class FeaturesController {
  constructor(private readonly features: FeaturesService) {}

  @Get()
  @Authorize({ module: 'authorization', resource: 'feature', action: AuthorizationAction.View })
  @ApiOkResponse({ type: FeatureList })
  list(@Caller() caller: TrustedCaller) {
    return this.features.list(caller.tenantId);
  }

  /** Scope `global` additionally needs `authorization.feature-default.update`, checked in the service before any write. */
  @Put(':featureCode')
  @Authorize({ module: 'authorization', resource: 'feature', action: AuthorizationAction.Update })
  @ApiOkResponse({ type: FeatureResponse })
  update(@Caller() caller: TrustedCaller, @Param('featureCode') featureCode: string, @Body() body: UpdateFeatureDto) {
    return this.features.update(caller, featureCode, body);
  }

  @Delete(':featureCode/override')
  @HttpCode(204)
  @Authorize({ module: 'authorization', resource: 'feature', action: AuthorizationAction.Update })
  @ApiNoContentResponse({ description: "The tenant's override is gone (or there was none); the global default applies." })
  async clearOverride(@Caller() caller: TrustedCaller, @Param('featureCode') featureCode: string): Promise<void> {
    await this.features.clearOverride(caller, featureCode);
  }
}
