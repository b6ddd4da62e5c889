import { ApiProperty } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';

export class RolePermissionResponse {
  @ApiProperty({ format: 'uuid' }) permissionId!: string;
  @ApiProperty({ example: 'authorization.abac-rule.view' }) permissionCode!: string;
  @ApiProperty() module!: string;
  @ApiProperty() resource!: string;
  @ApiProperty() action!: string;
  @ApiProperty() grantedAt!: string;
}

export class RolePermissionPage extends PageMeta {
  @ApiProperty({ type: [RolePermissionResponse] }) items!: RolePermissionResponse[];
}
