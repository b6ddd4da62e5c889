import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';

/** Body of POST /roles/{roleId}/permissions: exactly one of `permissionCode` and `permissionId`. */
export class GrantRolePermissionDto {
  @ApiPropertyOptional({ maxLength: 200, example: 'authorization.abac-rule.view' })
  @ValidateIf((_dto, value) => value !== undefined) // absent is allowed; null is not a code
  @IsString()
  @MaxLength(200)
  permissionCode?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @ValidateIf((_dto, value) => value !== undefined)
  @IsUUID()
  permissionId?: string;
}
