import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsISO8601, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export const MAX_DELEGATED_CODES = 50;

export class CreateDelegationDto {
  @ApiProperty({ description: "The subject (of the caller's tenant) that may act for the caller: the token's `act.sub`.", maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @Matches(/^\S(.*\S)?$/, { message: 'actor must not start or end with whitespace' })
  actor!: string;

  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_DELEGATED_CODES, example: ['authorization.role.view'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_DELEGATED_CODES)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  permissionCodes!: string[];

  @ApiProperty({ format: 'date-time', description: 'Absolute end; in the future and at most 30 days ahead.' })
  @IsISO8601({ strict: true })
  expiresAt!: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;
}
