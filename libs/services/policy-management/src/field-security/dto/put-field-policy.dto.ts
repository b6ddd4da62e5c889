import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, Length, Matches } from 'class-validator';
import { FIELD_EFFECT_NAMES, FieldEffectName } from '../field-effect';

/** Module and resource type as in permission codes: lower-case kebab segments. */
export const CODE_SEGMENT = /^[a-z][a-z0-9-]*$/;
/** A field path of the resource's payload: `amount`, `client.taxId`, `line_items`. */
export const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;

export class PutFieldPolicyDto {
  @ApiProperty({ maxLength: 60, example: 'billing' })
  @IsString()
  @Length(1, 60)
  @Matches(CODE_SEGMENT, { message: 'module must be a lower-case code (a-z, 0-9, -)' })
  module!: string;

  @ApiProperty({ maxLength: 60, example: 'invoice' })
  @IsString()
  @Length(1, 60)
  @Matches(CODE_SEGMENT, { message: 'resourceType must be a lower-case code (a-z, 0-9, -)' })
  resourceType!: string;

  @ApiProperty({ maxLength: 100, example: 'client.taxId' })
  @IsString()
  @Length(1, 100)
  @Matches(FIELD_PATH, { message: 'field must be a field path (letters, digits, _, -, dots between segments)' })
  field!: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  roleId!: string;

  @ApiProperty({ enum: FIELD_EFFECT_NAMES })
  @IsIn(FIELD_EFFECT_NAMES)
  effect!: FieldEffectName;
}
