import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AuthorizationEvent, AuthzRpc, EventEnvelope, TrustedCaller } from '@lp/contracts';
import { createEventEnvelope, OutboxWriter, RpcClient } from '@lp/platform/messaging';
import { CorrelationContext } from '@lp/platform/observability';
import { PolicyChangeLogEntity } from '../policy-store/entities/policy-change-log.entity';
import { MenuProjectionCache } from '../menu/menu-projection.cache';

/** One change as the change log and the integration event see it. */
export interface PolicyChangeRecord {
  /** What happened, `{target}.{verb}`: `role.created`, `user-role.revoked`, `feature.global-changed`. */
  change: string;
  /** The tenant it concerns; null only for a global feature default. */
  tenantId: string | null;
  targetType: string;
  targetId: string;
  before?: unknown;
  after?: unknown;
  /** The integration event(s) to publish through the outbox with it: a payload must match its type's contract. */
  events: AuthorizationEvent[];
}

/** The open transaction of one policy change: write through `manager`, then `record` the change. */
export class PolicyChangeTransaction {
  readonly envelopes: EventEnvelope[] = [];

  constructor(
    readonly manager: EntityManager,
    readonly caller: TrustedCaller,
    private readonly outbox: OutboxWriter,
  ) {}

  async record(record: PolicyChangeRecord): Promise<void> {
    const correlationId = CorrelationContext.current() ?? null;
    await this.manager.insert(PolicyChangeLogEntity, {
      tenantId: record.tenantId,
      actor: this.caller.actor ?? this.caller.subject,
      actorKind: this.caller.kind,
      change: record.change,
      targetType: record.targetType,
      targetId: record.targetId,
      before: (record.before ?? null) as object,
      after: (record.after ?? null) as object,
      correlationId,
    });
    const envelopes = record.events.map((e) => createEventEnvelope(e.type, e.payload, { tenantId: record.tenantId }));
    await this.outbox.add(this.manager, envelopes);
    this.envelopes.push(...envelopes);
  }
}

/**
 * Every policy change goes through `apply`: one transaction writes the change, its change-log entry
 * and its integration events (outbox), so none exists without the others. After the commit the same
 * envelopes are sent to authz-decision (`authz.invalidate`), which bumps the revisions at once: the
 * caller's very next request is decided on the new policy, without waiting for the relay and the
 * broker. If that call fails the change stands and the events, already committed, still invalidate
 * every instance when they are delivered; the failure is logged. This instance's menu projections
 * are dropped in-line as well (other instances drop theirs on the events).
 */
@Injectable()
export class PolicyChanges {
  private readonly logger = new Logger(PolicyChanges.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxWriter,
    private readonly rpc: RpcClient,
    private readonly menus: MenuProjectionCache,
  ) {}

  async apply<T>(caller: TrustedCaller, work: (tx: PolicyChangeTransaction) => Promise<T>, options: { invalidateNow?: boolean } = {}): Promise<T> {
    const { value, envelopes } = await this.dataSource.transaction((manager) => this.within(manager, caller, work));
    await this.committed(caller, envelopes, options);
    return value;
  }

  /**
   * The change path in a transaction opened elsewhere, for a change that must commit with something
   * else: an idempotent consumer's processed-event record (a change made in reaction to an event).
   * Hand the returned envelopes to `committed` once that transaction has committed.
   */
  async within<T>(
    manager: EntityManager,
    caller: TrustedCaller,
    work: (tx: PolicyChangeTransaction) => Promise<T>,
  ): Promise<{ value: T; envelopes: EventEnvelope[] }> {
    const tx = new PolicyChangeTransaction(manager, caller, this.outbox);
    const value = await work(tx);
    return { value, envelopes: tx.envelopes };
  }

  /** What follows a committed change: this instance's menu projections, then the decision service's revisions. */
  async committed(caller: TrustedCaller, envelopes: readonly EventEnvelope[], options: { invalidateNow?: boolean } = {}): Promise<void> {
    // This instance's menu projections first: the caller's own next read must already be fresh.
    for (const envelope of envelopes) this.menus.forget(envelope.eventType, envelope.payload, envelope.tenantId);
    if (envelopes.length > 0 && options.invalidateNow !== false) await this.invalidateNow(caller, [...envelopes]);
  }

  private async invalidateNow(caller: TrustedCaller, events: EventEnvelope[]): Promise<void> {
    try {
      await this.rpc.call(AuthzRpc.invalidate, { caller, payload: { events } });
    } catch (error) {
      this.logger.warn(
        `in-line invalidation of ${events.map((e) => `${e.eventType} ${e.eventId}`).join(', ')} failed; the outbox events will invalidate on delivery: ${
          (error as Error).message
        }`,
      );
    }
  }
}
