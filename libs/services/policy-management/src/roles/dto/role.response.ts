import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DATA_SCOPE_KINDS, DataScopeKind } from '@lp/contracts';
import { PageMeta } from '@lp/platform/http';
import { RoleEntity } from '../entities/role.entity';

export class RoleResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ enum: DATA_SCOPE_KINDS }) dataScope: DataScopeKind;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;

  static of(role: RoleEntity): RoleResponse {
    return {
      id: role.id,
      name: role.name,
      description: role.description,
      dataScope: role.dataScope,
      createdAt: role.createdAt.toISOString(),
      updatedAt: role.updatedAt.toISOString(),
    };
  }
}

export class RolePage extends PageMeta {
  @ApiProperty({ type: [RoleResponse] }) items: RoleResponse[];
}
