import { Payload } from '@nestjs/microservices';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuthorizationAction, AuthzRpc, MAX_ROLE_MEMBERS, ReceivedOf, RoleMembersReply } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { RoleEntity } from '../policy-store/entities/role.entity';
import { UserRoleEntity } from '../policy-store/entities/user-role.entity';

/**
 * `authz.role.members`: the subjects bound to a role of the caller's tenant, by role name (the key
 * definitions use). The workflow engine asks it, as an application caller of the task's tenant with
 * the `authorization.role.view` scope, to turn a role assignee into the people whose tasks they are.
 */
@RpcController()
export class RoleMembersRpcController {
  constructor(
    @InjectRepository(RoleEntity) private readonly roles: Repository<RoleEntity>,
    @InjectRepository(UserRoleEntity) private readonly bindings: Repository<UserRoleEntity>,
  ) {}

  @RpcHandler(AuthzRpc.roleMembers)
  @Authorize({ module: 'authorization', resource: 'role', action: AuthorizationAction.View })
  async members(@Payload() message: ReceivedOf<typeof AuthzRpc.roleMembers>): Promise<RoleMembersReply> {
    const { tenantId } = message.caller;
    const { roleName } = message.payload;
    const exists = await this.roles.exists({ where: { tenantId, name: roleName } });
    const rows = exists
      ? await this.bindings.find({ select: { subject: true }, where: { tenantId, roleName }, order: { subject: 'ASC' }, take: MAX_ROLE_MEMBERS + 1 })
      : [];
    return { tenantId, roleName, exists, subjects: rows.slice(0, MAX_ROLE_MEMBERS).map((r) => r.subject), truncated: rows.length > MAX_ROLE_MEMBERS };
  }
}
