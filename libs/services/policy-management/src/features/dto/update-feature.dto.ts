import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsIn } from 'class-validator';

export const FEATURE_SCOPES = ['tenant', 'global'] as const;
export type FeatureScope = (typeof FEATURE_SCOPES)[number];

/** Body of PUT /features/{featureCode}. */
export class UpdateFeatureDto {
  @ApiProperty()
  @IsBoolean()
  enabled!: boolean;

  @ApiProperty({
    enum: FEATURE_SCOPES,
    description:
      "`tenant`: the caller's tenant override. `global`: the default of every tenant without override; also needs authorization.feature-default.update.",
  })
  @IsIn(FEATURE_SCOPES, { message: `scope must be one of: ${FEATURE_SCOPES.join(', ')}` })
  scope!: FeatureScope;
}
