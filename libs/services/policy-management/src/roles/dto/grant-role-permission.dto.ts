import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

/** Body of POST /roles/{roleId}/permissions: exactly one of `permissionCode` and `permissionId`. */
export class GrantRolePermissionDto {
  @ApiPropertyOptional({ maxLength: 200, example: 'authorization.abac-rule.view' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  permissionCode?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  permissionId?: string;
}
