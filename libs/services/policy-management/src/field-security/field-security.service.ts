import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ChangeKind, EventTypes, FieldPolicyChangedPayload, NotFoundError, TrustedCaller } from '@lp/contracts';
import { Page, pageOf, pageWindow } from '@lp/platform/http';
import { PolicyChanges, PolicyChangeTransaction } from '../policy-change';
import { FieldPolicyEffect, FieldPolicyEntity } from '../policy-store';
import { RoleEntity } from '../policy-store/entities/role.entity';
import { EffectiveFieldPolicyQuery, ListFieldPoliciesQuery } from './dto/list-field-policies.query';
import { EffectiveFieldPolicyResponse, FieldPolicyResponse } from './dto/field-policy.response';
import { PutFieldPolicyDto } from './dto/put-field-policy.dto';
import { fieldEffectOf, strictestFieldEffects } from './field-effect';
import { FieldPolicyRoleUnknownError } from './field-security.errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The subject's roles and the policies they carry for one resource type, in one statement. */
const EFFECTIVE = `
  SELECT (SELECT coalesce(jsonb_agg(ur."role_name" ORDER BY ur."role_name"), '[]'::jsonb)
            FROM "authz"."user_role" ur
           WHERE ur."tenant_id" = $1 AND ur."subject" = $4) AS "roles",
         (SELECT coalesce(jsonb_agg(jsonb_build_object('field', fp."field", 'roleName', fp."role_name", 'effect', fp."effect")), '[]'::jsonb)
            FROM "authz"."field_policy" fp
            JOIN "authz"."user_role" ur ON ur."tenant_id" = fp."tenant_id" AND ur."role_id" = fp."role_id"
           WHERE fp."tenant_id" = $1 AND fp."module" = $2 AND fp."resource_type" = $3 AND ur."subject" = $4) AS "policies"`;

interface EffectiveRow {
  roles: string[];
  policies: { field: string; roleName: string; effect: FieldPolicyEffect }[];
}

/**
 * Field policies per (module, resource type, field, role). policy-management is their only owner
 * and has no execution surface for them (spec §8): consuming services read the effective policy of
 * a subject and apply it to the payloads they return. Every query is bound to the caller's tenant.
 */
@Injectable()
export class FieldSecurityService {
  constructor(
    @InjectRepository(FieldPolicyEntity) private readonly policies: Repository<FieldPolicyEntity>,
    private readonly changes: PolicyChanges,
  ) {}

  async list(tenantId: string, query: ListFieldPoliciesQuery): Promise<Page<FieldPolicyResponse>> {
    const { module, resourceType, roleId } = query;
    const where = {
      tenantId,
      ...(module !== undefined ? { module } : {}),
      ...(resourceType !== undefined ? { resourceType } : {}),
      ...(roleId !== undefined ? { roleId } : {}),
    };
    const [rows, total] = await this.policies.findAndCount({
      where,
      order: { module: 'ASC', resourceType: 'ASC', field: 'ASC', roleName: 'ASC', id: 'ASC' },
      ...pageWindow(query),
    });
    return pageOf(rows.map(FieldPolicyResponse.of), total, query);
  }

  /**
   * Creates the policy of (module, resource type, field, role) or changes its effect. Setting the
   * effect it already has writes nothing and publishes nothing. The role row is locked for the
   * transaction so it cannot be deleted under the new policy.
   */
  put(caller: TrustedCaller, dto: PutFieldPolicyDto): Promise<FieldPolicyResponse> {
    const tenantId = caller.tenantId;
    const effect = fieldEffectOf(dto.effect);
    return this.changes.apply(caller, async (tx) => {
      const role = await tx.manager.findOne(RoleEntity, { where: { tenantId, id: dto.roleId }, lock: { mode: 'pessimistic_read' } });
      if (!role) throw new FieldPolicyRoleUnknownError(dto.roleId);
      const key = { tenantId, module: dto.module, resourceType: dto.resourceType, field: dto.field, roleId: role.id };
      const inserted = await tx.manager
        .createQueryBuilder()
        .insert()
        .into(FieldPolicyEntity)
        .values({ ...key, roleName: role.name, effect, createdBy: caller.actor ?? caller.subject })
        .orIgnore()
        .returning(['id'])
        .execute();
      const row = await tx.manager.findOneOrFail(FieldPolicyEntity, { where: key, lock: { mode: 'pessimistic_write' } });
      if ((inserted.raw as unknown[]).length > 0) {
        await this.record(tx, 'created', null, row);
        return FieldPolicyResponse.of(row);
      }
      if (row.effect === effect) return FieldPolicyResponse.of(row);
      const before = FieldPolicyResponse.of(row);
      await tx.manager.update(FieldPolicyEntity, { id: row.id, tenantId }, { effect });
      const updated = await tx.manager.findOneByOrFail(FieldPolicyEntity, { id: row.id, tenantId });
      await this.record(tx, 'updated', before, updated);
      return FieldPolicyResponse.of(updated);
    });
  }

  async remove(caller: TrustedCaller, policyId: string): Promise<void> {
    const tenantId = caller.tenantId;
    if (!UUID.test(policyId)) throw new NotFoundError('Field policy');
    await this.changes.apply(caller, async (tx) => {
      const row = await tx.manager.findOne(FieldPolicyEntity, { where: { id: policyId, tenantId }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw new NotFoundError('Field policy');
      await tx.manager.delete(FieldPolicyEntity, { id: row.id, tenantId });
      await this.record(tx, 'deleted', FieldPolicyResponse.of(row), null, row);
    });
  }

  /** What consuming services apply: per field, the strictest effect across the subject's roles. */
  async effective(tenantId: string, query: EffectiveFieldPolicyQuery): Promise<EffectiveFieldPolicyResponse> {
    const [row] = await this.policies.manager.query<EffectiveRow[]>(EFFECTIVE, [tenantId, query.module, query.resourceType, query.subject]);
    if (!row) throw new Error('The effective field policy query returned no row');
    return {
      module: query.module,
      resourceType: query.resourceType,
      subject: query.subject,
      roles: row.roles,
      fields: strictestFieldEffects(row.policies),
    };
  }

  private async record(
    tx: PolicyChangeTransaction,
    change: ChangeKind,
    before: FieldPolicyResponse | null,
    after: FieldPolicyEntity | null,
    removed?: FieldPolicyEntity,
  ): Promise<void> {
    const row = (after ?? removed) as FieldPolicyEntity;
    const payload: FieldPolicyChangedPayload = { tenantId: row.tenantId, policyId: row.id, resourceType: row.resourceType, change };
    await tx.record({
      change: `field-policy.${change}`,
      tenantId: row.tenantId,
      targetType: 'field-policy',
      targetId: row.id,
      before,
      after: after ? FieldPolicyResponse.of(after) : null,
      events: [{ type: EventTypes.authorization.fieldPolicyChanged, payload }],
    });
  }
}
