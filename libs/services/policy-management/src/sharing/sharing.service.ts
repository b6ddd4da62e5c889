import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { EventTypes, NotFoundError, RelationChangedPayload, TrustedCaller } from '@lp/contracts';
import { Page, pageOf, pageWindow } from '@lp/platform/http';
import { PolicyChanges, PolicyChangeTransaction } from '../policy-change';
import { ResourceRelationEntity } from '../policy-store';
import { RoleEntity } from '../policy-store/entities/role.entity';
import { CreateShareDto } from './dto/create-share.dto';
import { ListSharesQuery } from './dto/list-shares.query';
import { ShareResponse } from './dto/share.response';
import { ShareRoleUnknownError } from './sharing.errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The unique key of a relation row (uq_resource_relation). */
export type RelationKey = Pick<ResourceRelationEntity, 'tenantId' | 'subject' | 'subjectKind' | 'resourceType' | 'resourceId' | 'relation'>;

export interface ShareResult {
  share: ShareResponse;
  /** False when an identical share already existed: nothing was written, no event. */
  created: boolean;
}

/**
 * Shares of one Case, Client or Billing instance with a user or a role (ReBAC Lite relation rows).
 * Every query is bound to the caller's tenant: another tenant's shares behave as if they did not
 * exist. Every change goes through `PolicyChanges` (row, change log, `authorization.relation.changed`
 * in one transaction, then in-line invalidation), so the next decision already sees it.
 */
@Injectable()
export class SharingService {
  constructor(
    @InjectRepository(ResourceRelationEntity) private readonly relations: Repository<ResourceRelationEntity>,
    private readonly changes: PolicyChanges,
  ) {}

  async list(tenantId: string, query: ListSharesQuery): Promise<Page<ShareResponse>> {
    const { resourceType, resourceId, subject, subjectKind } = query;
    const where = {
      tenantId,
      ...(resourceType !== undefined ? { resourceType } : {}),
      ...(resourceId !== undefined ? { resourceId } : {}),
      ...(subject !== undefined ? { subject } : {}),
      ...(subjectKind !== undefined ? { subjectKind } : {}),
    };
    const [rows, total] = await this.relations.findAndCount({ where, order: { createdAt: 'ASC', id: 'ASC' }, ...pageWindow(query) });
    return pageOf(rows.map(ShareResponse.of), total, query);
  }

  /**
   * Idempotent on the share's unique key (tenant, subject, kind, resource, relation): an identical
   * share is answered as it is, with no second change-log row or event. A role share must name a
   * role of the tenant; the role row is locked for the transaction so it cannot be deleted under it.
   */
  share(caller: TrustedCaller, dto: CreateShareDto): Promise<ShareResult> {
    const tenantId = caller.tenantId;
    return this.changes.apply(caller, async (tx) => {
      if (dto.subjectKind === 'role') {
        const role = await tx.manager.findOne(RoleEntity, { where: { tenantId, name: dto.subject }, lock: { mode: 'pessimistic_read' } });
        if (!role) throw new ShareRoleUnknownError(dto.subject);
      }
      const { row, created } = await this.relate(tx, {
        tenantId,
        subject: dto.subject,
        subjectKind: dto.subjectKind,
        resourceType: dto.resourceType,
        resourceId: dto.resourceId,
        relation: dto.relation,
      });
      return { share: ShareResponse.of(row), created };
    });
  }

  /**
   * Writes one relation row in the change's transaction, idempotent on the relation's unique key: an
   * existing identical row is returned as it is, with no change-log row and no event. A new row is
   * recorded (change log + `authorization.relation.changed`), so the next decision sees it. Shared by
   * the sharing route and the relations policy-management derives from business events; `change`
   * names the change in the log.
   */
  async relate(tx: PolicyChangeTransaction, key: RelationKey, change = 'share.granted'): Promise<{ row: ResourceRelationEntity; created: boolean }> {
    const inserted = await tx.manager
      .createQueryBuilder()
      .insert()
      .into(ResourceRelationEntity)
      .values({ ...key, createdBy: tx.caller.actor ?? tx.caller.subject })
      .orIgnore()
      .returning(['id'])
      .execute();
    const row = await tx.manager.findOneByOrFail(ResourceRelationEntity, key);
    const created = (inserted.raw as unknown[]).length > 0;
    if (created) await this.record(tx, change, row, 'granted');
    return { row, created };
  }

  async revoke(caller: TrustedCaller, shareId: string): Promise<void> {
    const tenantId = caller.tenantId;
    if (!UUID.test(shareId)) throw new NotFoundError('Share');
    await this.changes.apply(caller, async (tx) => {
      const row = await tx.manager.findOne(ResourceRelationEntity, { where: { id: shareId, tenantId }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw new NotFoundError('Share');
      await tx.manager.delete(ResourceRelationEntity, { id: row.id, tenantId });
      await this.record(tx, 'share.revoked', row, 'revoked');
    });
  }

  private async record(tx: PolicyChangeTransaction, change: string, row: ResourceRelationEntity, kind: RelationChangedPayload['change']): Promise<void> {
    const payload: RelationChangedPayload = {
      tenantId: row.tenantId,
      resourceType: row.resourceType,
      resourceId: row.resourceId,
      subject: row.subject,
      subjectKind: row.subjectKind,
      relation: row.relation,
      change: kind,
    };
    const snapshot = ShareResponse.of(row);
    await tx.record({
      change,
      tenantId: row.tenantId,
      targetType: 'resource-relation',
      targetId: row.id,
      before: kind === 'revoked' ? snapshot : null,
      after: kind === 'granted' ? snapshot : null,
      events: [{ type: EventTypes.authorization.relationChanged, payload }],
    });
  }
}
