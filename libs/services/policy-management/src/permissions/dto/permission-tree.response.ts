import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class PermissionTreeActionResponse {
  @ApiProperty({ example: 'View' }) action!: string;
  @ApiProperty({ format: 'uuid' }) permissionId!: string;
  @ApiProperty({ example: 'authorization.role.view' }) code!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description!: string | null;
}

export class PermissionTreeResourceResponse {
  @ApiProperty({ example: 'role' }) resource!: string;
  @ApiProperty({ type: [PermissionTreeActionResponse] }) actions!: PermissionTreeActionResponse[];
}

export class PermissionTreeModuleResponse {
  @ApiProperty({ example: 'authorization' }) module!: string;
  @ApiProperty({ type: [PermissionTreeResourceResponse] }) resources!: PermissionTreeResourceResponse[];
}

/** GET /permissions/tree and GET /me/menu. */
export class PermissionTreeResponse {
  @ApiProperty({ type: [PermissionTreeModuleResponse] }) modules!: PermissionTreeModuleResponse[];
}
