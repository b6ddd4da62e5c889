import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, FindOptionsWhere, Repository } from 'typeorm';
import { PageQuery, pageWindow } from '@lp/platform/http';
import { DelegatedGrantEntity } from '../policy-store/entities/delegated-grant.entity';
import { DelegationListScope } from './dto/list-delegations.query';

/** How each asked code stands for a subject: in the catalog at all, and held by the subject now. */
export interface CodeStanding {
  code: string;
  known: boolean;
  held: boolean;
}

/**
 * One statement: for each code, whether the catalog has it and whether the subject holds it right
 * now through a role binding or an unrevoked, unexpired temporary grant: exactly the authority the
 * decision core's RBAC grants a user (`ownAuthority`), so a delegation is checked against what the
 * core would permit the delegator itself.
 */
const CODE_STANDING = `
  SELECT c.code,
         EXISTS (SELECT 1 FROM "authz"."permission" p WHERE p."code" = c.code) AS "known",
         (EXISTS (SELECT 1
                    FROM "authz"."user_role" ur
                    JOIN "authz"."role_permission" rp ON rp."role_id" = ur."role_id" AND rp."tenant_id" = ur."tenant_id"
                   WHERE ur."tenant_id" = $1 AND ur."subject" = $2 AND rp."permission_code" = c.code)
          OR EXISTS (SELECT 1
                       FROM "authz"."temporary_grant" g
                      WHERE g."tenant_id" = $1 AND g."subject" = $2 AND g."revoked_at" IS NULL
                        AND g."expires_at" > now() AND c.code = ANY (g."permission_codes"))) AS "held"
    FROM unnest($3::text[]) WITH ORDINALITY AS c(code, position)
   ORDER BY c.position`;

@Injectable()
export class DelegatedAdminRepository {
  constructor(@InjectRepository(DelegatedGrantEntity) private readonly grants: Repository<DelegatedGrantEntity>) {}

  /** Bound to one tenant: another tenant's delegations do not exist here. Newest first. */
  list(tenantId: string, subject: string, scope: DelegationListScope, page: PageQuery): Promise<[DelegatedGrantEntity[], number]> {
    const where: FindOptionsWhere<DelegatedGrantEntity> = { tenantId };
    if (scope === 'made') where.delegator = subject;
    if (scope === 'received') where.actor = subject;
    return this.grants.findAndCount({ where, order: { createdAt: 'DESC', id: 'ASC' }, ...pageWindow(page) });
  }

  async codeStanding(manager: EntityManager, tenantId: string, subject: string, codes: string[]): Promise<CodeStanding[]> {
    return manager.query(CODE_STANDING, [tenantId, subject, codes]);
  }

  /** The tenant's delegation, locked for the rest of the transaction; null for an unknown or foreign id. */
  lockedInTenant(manager: EntityManager, tenantId: string, id: string): Promise<DelegatedGrantEntity | null> {
    return manager.findOne(DelegatedGrantEntity, { where: { tenantId, id }, lock: { mode: 'pessimistic_write' } });
  }
}
