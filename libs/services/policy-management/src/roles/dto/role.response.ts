import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import { isProtectedRole, requiredPermissionsOf } from '../protected-role';
import { ROLE_DATA_SCOPES, RoleDataScope, RoleEntity } from '../../policy-store/entities/role.entity';

export class RoleResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ enum: ROLE_DATA_SCOPES }) dataScope!: RoleDataScope;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
  @ApiProperty({ description: 'A seeded role the tenant is administered through: it cannot be renamed or deleted.' })
  protected!: boolean;
  @ApiProperty({
    type: [String],
    description: 'Permission codes the role cannot lose (409 Authorization.RoleProtected on revoke); empty unless protected.',
  })
  requiredPermissionCodes!: string[];

  static of(role: RoleEntity): RoleResponse {
    return {
      id: role.id,
      name: role.name,
      description: role.description,
      dataScope: role.dataScope,
      createdAt: role.createdAt.toISOString(),
      updatedAt: role.updatedAt.toISOString(),
      protected: isProtectedRole(role.tenantId, role.name),
      requiredPermissionCodes: [...requiredPermissionsOf(role.tenantId, role.name)],
    };
  }
}

export class RolePage extends PageMeta {
  @ApiProperty({ type: [RoleResponse] }) items!: RoleResponse[];
}
