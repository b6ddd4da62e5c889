import { Injectable } from '@nestjs/common';
import { DelegationChangedPayload, EventTypes, NotFoundError, TrustedCaller, ValidationError } from '@lp/contracts';
import { Page, pageOf } from '@lp/platform/http';
import { DelegatedGrantEntity } from '../policy-store/entities/delegated-grant.entity';
import { PolicyChanges, PolicyChangeTransaction } from '../policy-change/policy-changes';
import { CreateDelegationDto } from './dto/create-delegation.dto';
import { DelegationResponse } from './dto/delegation.response';
import { ListDelegationsQuery } from './dto/list-delegations.query';
import { DelegatedAdminRepository } from './delegated-admin.repository';
import { PermissionUnknownError } from '../catalog/permission-unknown.error';
import { assertGrantableInTenant } from '../catalog/permission-platform-only.error';
import { DelegationAlreadyRevokedError, DelegationByNonUserError, DelegationExceedsDelegatorError } from './delegated-admin.errors';
import { delegationExpiryProblem } from './delegation-window';

/**
 * Delegated administration: a user (the delegator, the token's `sub`) lets another subject of its
 * tenant (the actor, a token's `act.sub`) act for it with a bounded subset of its own codes until an
 * absolute expiry. The decision core reads these rows by `delegator` = `sub` and matches `actor` =
 * `act.sub`; it permits a code only while the grant is active, lists the code, and the delegator
 * still holds it. Creation refuses codes the delegator does not hold now, so a row never claims
 * more than the delegator had when it was made.
 */
@Injectable()
export class DelegatedAdminService {
  constructor(
    private readonly repository: DelegatedAdminRepository,
    private readonly changes: PolicyChanges,
  ) {}

  async list(caller: TrustedCaller, query: ListDelegationsQuery): Promise<Page<DelegationResponse>> {
    const [rows, total] = await this.repository.list(caller.tenantId, caller.subject, query.scope, query);
    const now = new Date();
    return pageOf(
      rows.map((row) => DelegationResponse.of(row, now)),
      total,
      query,
    );
  }

  async create(caller: TrustedCaller, dto: CreateDelegationDto): Promise<DelegationResponse> {
    if (caller.kind !== 'user') throw new DelegationByNonUserError(caller.kind);
    const delegator = caller.subject;
    const problems: Record<string, string[]> = {};
    if (dto.actor === delegator) problems['actor'] = ['actor must differ from the delegator (the caller)'];
    const expiresAt = new Date(dto.expiresAt);
    const expiryProblem = delegationExpiryProblem(expiresAt, new Date());
    if (expiryProblem) problems['expiresAt'] = [expiryProblem];
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);

    return this.changes.apply(caller, async (tx) => {
      const standing = await this.repository.codeStanding(tx.manager, caller.tenantId, delegator, dto.permissionCodes);
      const unknown = standing.filter((s) => !s.known).map((s) => s.code);
      if (unknown.length > 0) throw new PermissionUnknownError(unknown);
      assertGrantableInTenant(caller.tenantId, dto.permissionCodes);
      const notHeld = standing.filter((s) => !s.held).map((s) => s.code);
      if (notHeld.length > 0) throw new DelegationExceedsDelegatorError(notHeld);

      const grant = await tx.manager.save(
        tx.manager.create(DelegatedGrantEntity, {
          tenantId: caller.tenantId,
          delegator,
          actor: dto.actor,
          permissionCodes: dto.permissionCodes,
          expiresAt,
          reason: dto.reason ?? null,
          revokedAt: null,
        }),
      );
      const after = DelegationResponse.of(grant);
      await this.record(tx, grant, 'granted', null, after);
      return after;
    });
  }

  /** Any delegation of the tenant, by a holder of Revoke (not only its delegator): an administrative stop. */
  async revoke(caller: TrustedCaller, id: string): Promise<void> {
    await this.changes.apply(caller, async (tx) => {
      const grant = await this.repository.lockedInTenant(tx.manager, caller.tenantId, id);
      if (!grant) throw new NotFoundError(`Delegation ${id}`);
      if (grant.revokedAt) throw new DelegationAlreadyRevokedError(id);
      const before = DelegationResponse.of(grant);
      grant.revokedAt = new Date();
      await tx.manager.update(DelegatedGrantEntity, { id: grant.id, tenantId: grant.tenantId }, { revokedAt: grant.revokedAt });
      await this.record(tx, grant, 'revoked', before, DelegationResponse.of(grant));
    });
  }

  private record(tx: PolicyChangeTransaction, grant: DelegatedGrantEntity, change: 'granted' | 'revoked', before: unknown, after: unknown) {
    const payload: DelegationChangedPayload = {
      tenantId: grant.tenantId,
      delegationId: grant.id,
      // The decision core keys delegated grants by the delegator; the actor is named too so its
      // own cached views (and any consumer) learn of the change.
      subjects: [grant.delegator, grant.actor],
      change,
    };
    return tx.record({
      change: `delegation.${change}`,
      tenantId: grant.tenantId,
      targetType: 'delegated-grant',
      targetId: grant.id,
      before,
      after,
      events: [{ type: EventTypes.authorization.delegationChanged, payload }],
    });
  }
}
