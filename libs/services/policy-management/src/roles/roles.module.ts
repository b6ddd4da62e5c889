import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RoleEntity } from '../policy-store/entities/role.entity';
import { UserRoleEntity } from '../policy-store/entities/user-role.entity';
import { RoleMembersController } from './role-members.controller';
import { RoleMembersRpcController } from './role-members.rpc-controller';
import { RoleMembersService } from './role-members.service';
import { RolePermissionsController } from './role-permissions.controller';
import { RolePermissionsService } from './role-permissions.service';
import { RoleRepository } from './role.repository';
import { RolesController } from './roles.controller';
import { RolesService } from './roles.service';
import { UserRolesController } from './user-roles.controller';
import { UserRolesService } from './user-roles.service';

@Module({
  imports: [TypeOrmModule.forFeature([RoleEntity, UserRoleEntity])],
  controllers: [RolesController, UserRolesController, RoleMembersController, RolePermissionsController, RoleMembersRpcController],
  providers: [RolesService, RoleRepository, UserRolesService, RoleMembersService, RolePermissionsService],
})
export class RolesModule {}
