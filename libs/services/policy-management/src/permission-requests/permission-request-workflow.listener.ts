import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PermissionCheck } from '@lp/authz-guard';
import {
  AuthorizationAction,
  DomainError,
  EventEnvelope,
  GovernanceResources,
  NotFoundError,
  PERMISSION_REQUEST_DEFINITION_KEY,
  ReceivedEventOf,
  TrustedCaller,
  WorkflowInstanceEventFamily,
  WorkflowRuntimeEvents,
} from '@lp/contracts';
import { EventBus, IdempotentConsumer } from '@lp/platform/messaging';
import { PolicyChanges } from '../policy-change/policy-changes';
import { POLICY_MANAGEMENT_CONSUMER } from '../sharing/case-owner-relation.listener';
import { PermissionRequestDecisions } from './permission-request-decisions';
import { RequestNotPendingError, SelfApprovalError } from './permission-requests.errors';

/** Names this handler's processed-event records. */
export const PERMISSION_REQUEST_WORKFLOW_CONSUMER = 'policy-management:permission-request-workflow';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who the change log names when no person decided (recording the instance, a refused approval): this consumer. */
export function permissionRequestWorkflowCaller(tenantId: string): TrustedCaller {
  return {
    kind: 'application',
    subject: PERMISSION_REQUEST_WORKFLOW_CONSUMER,
    clientId: 'policy-management',
    tenantId,
    scopes: [],
    claimsDigest: 'permission-request-workflow',
  };
}

/** The person whose vote (or withdrawal, cancellation) ended the instance: they decided the request. */
function personCaller(tenantId: string, subject: string): TrustedCaller {
  return { kind: 'user', subject, tenantId, scopes: [], claimsDigest: 'permission-request-workflow:decider' };
}

/** What one instance event means for its request. */
export type InstanceOutcome =
  { kind: 'started'; initiator: string } | { kind: 'approved'; by: string | null } | { kind: 'rejected'; by: string | null; note: string };

/** The instance a request is waiting for has not been recorded yet (its `started` event is still in flight): retried. */
export class WorkflowInstanceNotRecordedError extends DomainError {
  override readonly retryAfterSeconds = 1;

  constructor(requestId: string, instanceId: string) {
    super('Authorization.WorkflowInstanceNotRecorded', 503, `Permission request ${requestId} has no workflow instance recorded yet; ${instanceId} is retried.`);
  }
}

/**
 * Decides permission requests from the end of their `permission-request` workflow instances
 * (docs/permission-requests.md, Where the workflow engine plugs in), on policy-management's durable
 * queue, idempotently by event id (the processed-event record commits with the change):
 *
 * - `workflow.instance.started` (initiator = the requester) records the instance on the pending
 *   request; from then on the routes refuse to decide it;
 * - `completed` Approved: `PermissionRequestDecisions.approve` as the voter who approved, who must
 *   hold `authorization.permission-requests.approve` like a route's approver; four eyes hold too;
 * - `completed` Rejected, `withdrawn`, `terminated`, `cancelled`: reject, as the person who did it.
 *
 * A request no longer pending (decided by a route before the instance was recorded, or a redelivery
 * past the processed-event retention) changes nothing.
 */
@Injectable()
export class PermissionRequestWorkflowListener implements OnApplicationBootstrap {
  private readonly logger = new Logger(PermissionRequestWorkflowListener.name);
  private readonly consumer: IdempotentConsumer;

  constructor(
    private readonly bus: EventBus,
    private readonly changes: PolicyChanges,
    private readonly decisions: PermissionRequestDecisions,
    private readonly permissions: PermissionCheck,
    dataSource: DataSource,
  ) {
    this.consumer = new IdempotentConsumer(dataSource, PERMISSION_REQUEST_WORKFLOW_CONSUMER);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribeTo(WorkflowInstanceEventFamily, { mode: 'service', consumer: POLICY_MANAGEMENT_CONSUMER }, (event) => this.receive(event));
  }

  async receive({ envelope, contract, payload }: ReceivedEventOf<typeof WorkflowInstanceEventFamily>): Promise<void> {
    // Instance events of other kinds (suspended, returned, ...) decide nothing.
    if (!contract) return;
    if (!payload || payload.tenantId !== envelope.tenantId) {
      this.logger.error(`${envelope.eventType} ${envelope.eventId} does not match its contract (or its envelope's tenant); ignored`);
      return;
    }
    if (payload.definitionKey !== PERMISSION_REQUEST_DEFINITION_KEY) return;
    if (!UUID.test(payload.businessKey)) {
      this.logger.warn(`${envelope.eventType} ${envelope.eventId}: business key "${payload.businessKey}" is no permission request id; ignored`);
      return;
    }
    await this.follow(envelope, payload.tenantId, payload.businessKey, payload.instanceId, outcomeOf(contract.type, payload));
  }

  /** Resolves true when the event changed the request, false when it found nothing to change (or was processed already). */
  async follow(envelope: Pick<EventEnvelope, 'eventId'>, tenantId: string, requestId: string, instanceId: string, outcome: InstanceOutcome): Promise<boolean> {
    const settled = await this.authorityOf(tenantId, instanceId, outcome);
    const system = permissionRequestWorkflowCaller(tenantId);
    const decider = { kind: 'workflow', instanceId } as const;
    const envelopes: EventEnvelope[] = [];
    let changed = false;
    await this.consumer.process(envelope, async (manager) => {
      if (settled.kind === 'started') {
        const recorded = await this.changes.within(manager, system, (tx) =>
          this.decisions.recordWorkflowInstance(tx, requestId, instanceId, settled.initiator),
        );
        changed = recorded.value;
        envelopes.push(...recorded.envelopes);
        return;
      }
      const caller = settled.by ? personCaller(tenantId, settled.by) : system;
      try {
        const decided = await this.changes.within(manager, caller, (tx) =>
          settled.kind === 'approved'
            ? this.decisions.approveIn(tx, requestId, `Approved in workflow instance ${instanceId}.`, decider)
            : this.decisions.rejectIn(tx, requestId, settled.note, decider),
        );
        envelopes.push(...decided.envelopes);
        changed = true;
      } catch (error) {
        // Every refusal below is thrown before the transaction wrote anything, so it can go on.
        if (error instanceof SelfApprovalError) {
          // Four eyes holds on this path too: a workflow whose requester approved rejects the request.
          const rejected = await this.changes.within(manager, system, (tx) =>
            this.decisions.rejectIn(tx, requestId, `Four eyes: the requester approved their own request in workflow instance ${instanceId}.`, decider),
          );
          envelopes.push(...rejected.envelopes);
          changed = true;
          return;
        }
        if (error instanceof RequestNotPendingError) return;
        if (error instanceof NotFoundError) {
          if (await this.decisions.awaitsWorkflowInstance(manager, tenantId, requestId)) throw new WorkflowInstanceNotRecordedError(requestId, instanceId);
          return;
        }
        throw error;
      }
    });
    await this.changes.committed(system, envelopes);
    if (changed) this.logger.log(`permission request ${requestId} (tenant ${tenantId}): workflow instance ${instanceId} ${settled.kind}`);
    return changed;
  }

  /**
   * An approving vote counts only from someone who may approve permission requests (the route's
   * permission), asked of the decision service before the transaction; anything else rejects. No
   * answer is thrown, so the event is retried.
   */
  private async authorityOf(tenantId: string, instanceId: string, outcome: InstanceOutcome): Promise<InstanceOutcome> {
    if (outcome.kind !== 'approved') return outcome;
    if (!outcome.by) return { kind: 'rejected', by: null, note: `Workflow instance ${instanceId} approved without an approver's vote; four eyes need one.` };
    const permitted = await this.permissions
      .require(personCaller(tenantId, outcome.by), {
        module: 'authorization',
        resource: GovernanceResources.permissionRequests,
        action: AuthorizationAction.Approve,
      })
      .then(() => true)
      .catch((error: unknown) => {
        if (error instanceof DomainError && error.status === 403) return false;
        throw error;
      });
    if (permitted) return outcome;
    return { kind: 'rejected', by: null, note: `${outcome.by} approved in workflow instance ${instanceId} without authorization.permission-requests.approve.` };
  }
}

/** A decision note is at most 1000 characters, like a route's. */
const NOTE_MAX = 1000;

/** The request's side of an instance event of the family. */
export function outcomeOf(
  type: string,
  payload: {
    status?: 'Approved' | 'Rejected';
    decidedBy?: string | null;
    initiator?: string;
    by?: string;
    to?: string;
    reason?: string | null;
    instanceId: string;
  },
): InstanceOutcome {
  if (type === WorkflowRuntimeEvents.instanceStarted.type) return { kind: 'started', initiator: payload.initiator ?? '' };
  if (type === WorkflowRuntimeEvents.instanceCompleted.type) {
    if (payload.status === 'Approved') return { kind: 'approved', by: payload.decidedBy ?? null };
    return { kind: 'rejected', by: payload.decidedBy ?? null, note: `Rejected in workflow instance ${payload.instanceId}.` };
  }
  const reason = payload.reason ? `: ${payload.reason}` : '.';
  return {
    kind: 'rejected',
    by: payload.by ?? null,
    note: `Workflow instance ${payload.instanceId} ${payload.to?.toLowerCase() ?? 'ended'}${reason}`.slice(0, NOTE_MAX),
  };
}
