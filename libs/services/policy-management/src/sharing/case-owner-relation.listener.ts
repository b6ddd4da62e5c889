import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CASE_EVENT_FAMILY, CaseEvents, EventEnvelope, TrustedCaller } from '@lp/contracts';
import { EventBus, IdempotentConsumer } from '@lp/platform/messaging';
import { PolicyChanges } from '../policy-change';
import { SharingService } from './sharing.service';

/** The durable queue of policy-management's once-per-service event work (`policy-management.events`). */
export const POLICY_MANAGEMENT_CONSUMER = 'policy-management';
/** Names this handler's processed-event records: another handler of the same events needs its own. */
export const CASE_OWNER_CONSUMER = 'policy-management:case-owner';

/** Who the change log names for relations derived from `case.created`: this consumer, not a person. */
export function caseOwnerCaller(tenantId: string): TrustedCaller {
  return { kind: 'application', subject: CASE_OWNER_CONSUMER, clientId: 'policy-management', tenantId, scopes: [], claimsDigest: 'case-owner' };
}

/**
 * Makes a case's creator its ReBAC `owner` (docs/sharing.md, Owner relations of new cases):
 * case-management publishes `case.created` through its outbox and this consumer, on
 * policy-management's durable queue, writes the relation (user subject → `case`/{caseId}) through
 * `PolicyChanges` (change log, `authorization.relation.changed`, in-line invalidation). The
 * processed-event record and the relation commit in one transaction, so a redelivered event is
 * skipped, and a failure rolls both back for the next delivery; the relation's unique key makes the
 * write idempotent even past the record's retention. Eventually consistent: the owner can read the
 * case through ReBAC milliseconds after the create commits (the relay publishes on commit).
 */
@Injectable()
export class CaseOwnerRelationListener implements OnApplicationBootstrap {
  private readonly logger = new Logger(CaseOwnerRelationListener.name);
  private readonly consumer: IdempotentConsumer;

  constructor(
    private readonly bus: EventBus,
    private readonly changes: PolicyChanges,
    private readonly sharing: SharingService,
    dataSource: DataSource,
  ) {
    this.consumer = new IdempotentConsumer(dataSource, CASE_OWNER_CONSUMER);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribeTo(CASE_EVENT_FAMILY, { mode: 'service', consumer: POLICY_MANAGEMENT_CONSUMER }, async ({ envelope, contract, payload }) => {
      if (contract !== CaseEvents.created) return;
      if (!payload || payload.tenantId !== envelope.tenantId) {
        // Retrying cannot make a malformed event valid: say so and let it go.
        this.logger.error(`case.created ${envelope.eventId} does not match its contract (or its envelope's tenant); no owner relation written`);
        return;
      }
      await this.grantOwner(envelope, payload.tenantId, payload.caseId, payload.owner);
    });
  }

  /** Resolves true when this call wrote the relation, false when the event was already processed or the relation existed. */
  async grantOwner(envelope: Pick<EventEnvelope, 'eventId'>, tenantId: string, caseId: string, owner: string): Promise<boolean> {
    const caller = caseOwnerCaller(tenantId);
    let written = false;
    let envelopes: EventEnvelope[] = [];
    await this.consumer.process(envelope, async (manager) => {
      const change = await this.changes.within(manager, caller, (tx) =>
        this.sharing.relate(
          tx,
          { tenantId, subject: owner, subjectKind: 'user', resourceType: 'case', resourceId: caseId, relation: 'owner' },
          'case-owner.granted',
        ),
      );
      written = change.value.created;
      envelopes = change.envelopes;
    });
    await this.changes.committed(caller, envelopes);
    if (written) this.logger.debug(`owner relation of case ${caseId} granted to ${owner} (event ${envelope.eventId})`);
    return written;
  }
}
