import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsEnum, IsObject, ValidateNested } from 'class-validator';
import { AUTHORIZATION_ACTIONS, AuthorizationAction } from '@lp/contracts';
import { ResourceDescriptorDto } from '@lp/authz-guard';

export const MAX_DECISION_BATCH = 100;

export class DecisionQueryDto {
  @ApiProperty({ type: ResourceDescriptorDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ResourceDescriptorDto)
  resource!: ResourceDescriptorDto;

  @ApiProperty({ enum: AUTHORIZATION_ACTIONS })
  @IsEnum(AuthorizationAction, { message: `action must be one of ${AUTHORIZATION_ACTIONS.join(', ')}` })
  action!: AuthorizationAction;
}

export class DecisionBatchDto {
  @ApiProperty({ type: [DecisionQueryDto], maxItems: MAX_DECISION_BATCH })
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_DECISION_BATCH, { message: `a batch holds at most ${MAX_DECISION_BATCH} items` })
  @Type(() => DecisionQueryDto)
  items!: DecisionQueryDto[];
}
