import { ApiProperty } from '@nestjs/swagger';
import { FeatureDefinitionEntity, FeatureOverrideEntity } from '../../policy-store';

/** A feature as the caller's tenant sees it. */
export class FeatureResponse {
  @ApiProperty() code!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'The default of every tenant without override.' }) globalDefault!: boolean;
  @ApiProperty({ nullable: true, type: Boolean, description: "The caller's tenant override; null: none, the default applies." })
  tenantOverride!: boolean | null;
  @ApiProperty({ description: 'What the Feature evaluator decides with for this tenant: override, else default.' }) effective!: boolean;

  static of(definition: FeatureDefinitionEntity, override: FeatureOverrideEntity | null | undefined): FeatureResponse {
    const tenantOverride = override ? override.enabled : null;
    return {
      code: definition.code,
      description: definition.description,
      globalDefault: definition.defaultEnabled,
      tenantOverride,
      effective: tenantOverride ?? definition.defaultEnabled,
    };
  }
}

export class FeatureList {
  @ApiProperty({ type: [FeatureResponse] }) items!: FeatureResponse[];
}
