import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';

export const MIN_REQUEST_SECONDS = 60;
export const MAX_REQUEST_SECONDS = 30 * 24 * 60 * 60;
export const MAX_REQUESTED_CODES = 50;

export class CreatePermissionRequestDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_REQUESTED_CODES, example: ['authorization.role.view'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REQUESTED_CODES)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  permissionCodes!: string[];

  @ApiProperty({ minimum: MIN_REQUEST_SECONDS, maximum: MAX_REQUEST_SECONDS, description: 'How long the grant runs from the instant of approval.' })
  @IsInt()
  @Min(MIN_REQUEST_SECONDS)
  @Max(MAX_REQUEST_SECONDS)
  durationSeconds!: number;

  @ApiProperty({ minLength: 1, maxLength: 1000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  reason!: string;
}
