import { NotFoundError } from '@lp/contracts';
import { EntityManager } from 'typeorm';
import { RoleEntity } from '../policy-store/entities/role.entity';
import { requireUuid } from './path-params';

/**
 * The role `roleId` of the tenant, locked for the rest of the transaction, or 404. `update` for a
 * rename or delete; `share` where rows copying the role's name are inserted, so the name cannot
 * change under the insert.
 */
export async function lockRole(manager: EntityManager, tenantId: string, roleId: string, lock: 'update' | 'share'): Promise<RoleEntity> {
  const id = requireUuid(roleId, 'Role');
  const role = await manager.findOne(RoleEntity, {
    where: { id, tenantId },
    lock: { mode: lock === 'update' ? 'pessimistic_write' : 'pessimistic_read' },
  });
  if (!role) throw new NotFoundError('Role');
  return role;
}
