import { Inject, Injectable, Logger } from '@nestjs/common';
import { FeatureGate } from '@lp/authz-guard';
import { FleetService, PERMISSION_REQUEST_DEFINITION_KEY, PermissionRequestFlowVariables, TrustedCaller } from '@lp/contracts';
import { ASSIGNEE_DIRECTORY } from '../definitions/assignee-directory';
import { DefinitionsService } from '../definitions/definitions.service';
import type { AssigneeDirectory } from '../engine';
import { InvalidStateError } from '../runtime/runtime-errors';
import { RuntimeRepository } from '../runtime/runtime.repository';
import { instanceOf, RuntimeService } from '../runtime/runtime.service';
import type { InstanceResponse } from '../runtime/dto/runtime.responses';
import { WORKFLOW_RUNTIME_FEATURE } from '../runtime-feature/workflow-runtime.guard';
import { PERMISSION_APPROVER_ROLES, PERMISSION_REQUEST_DEFINITION } from './permission-request-definition';

/** A filed permission request, as its `pending` event carries it. */
export interface FiledPermissionRequest {
  tenantId: string;
  requestId: string;
  subject: string;
  permissionCodes: string[];
  durationSeconds: number;
  reason: string;
}

/** Priority of an approval instance: the runtime's default for a start that names none. */
const APPROVAL_PRIORITY = 0;

/** The engine itself, in a tenant: seeds the definition and ends an instance whose request was decided elsewhere. */
export function permissionRequestFlowCaller(tenantId: string): TrustedCaller {
  const subject = `${FleetService.workflowEngine}:permission-request-flow`;
  return { kind: 'application', subject, clientId: FleetService.workflowEngine, tenantId, scopes: [], claimsDigest: subject };
}

/** The requester, who initiates the approval of their own request (they filed it with their own token). */
function requesterCaller(tenantId: string, subject: string): TrustedCaller {
  return { kind: 'user', subject, tenantId, scopes: [], claimsDigest: 'permission-request-flow:requester' };
}

/**
 * The approval of permission requests on the engine (docs/permission-request-flow.md): an instance
 * of `permission-request` per filed request, business key = the request id, initiator = the
 * requester; and the end of that instance when the request was decided outside it.
 */
@Injectable()
export class PermissionRequestFlow {
  private readonly logger = new Logger(PermissionRequestFlow.name);

  constructor(
    private readonly runtime: RuntimeService,
    private readonly instances: RuntimeRepository,
    private readonly definitions: DefinitionsService,
    private readonly features: FeatureGate,
    @Inject(ASSIGNEE_DIRECTORY) private readonly directory: AssigneeDirectory,
  ) {}

  /**
   * Starts the approval of a filed request; null when the tenant's `workflow.runtime` feature is off
   * (the request is then left to the direct routes). Idempotent: a redelivered event finds the
   * instance of its business key and starts nothing.
   */
  async begin(filed: FiledPermissionRequest): Promise<InstanceResponse | null> {
    const { tenantId, requestId, subject } = filed;
    const system = permissionRequestFlowCaller(tenantId);
    const existing = await this.instances.instanceByBusinessKey(tenantId, PERMISSION_REQUEST_DEFINITION_KEY, requestId);
    if (existing) return instanceOf(existing);
    if (!(await this.features.isEnabled(system, WORKFLOW_RUNTIME_FEATURE))) {
      this.logger.warn(`${WORKFLOW_RUNTIME_FEATURE} is off in tenant ${tenantId}: permission request ${requestId} is left to the approve/reject routes`);
      return null;
    }
    // First need in this tenant: publish the shipped definition, unless the tenant has its own.
    if (await this.definitions.seed(system, PERMISSION_REQUEST_DEFINITION_KEY, PERMISSION_REQUEST_DEFINITION)) {
      this.logger.log(`definition ${PERMISSION_REQUEST_DEFINITION_KEY} seeded in tenant ${tenantId}`);
    }
    const variables: PermissionRequestFlowVariables = {
      requestId,
      requester: subject,
      permissionCodes: filed.permissionCodes,
      durationSeconds: filed.durationSeconds,
      reason: filed.reason,
      approvers: await this.approvers(tenantId, subject),
    };
    const { instance } = await this.runtime.start(requesterCaller(tenantId, subject), {
      definitionKey: PERMISSION_REQUEST_DEFINITION_KEY,
      businessKey: requestId,
      variables: { ...variables },
      priority: APPROVAL_PRIORITY,
    });
    return instance;
  }

  /**
   * The request was decided outside its instance (through a route before the instance was recorded
   * on it, or while the engine was away): the instance, if still open, is cancelled so nobody is
   * left with a task that decides nothing. Resolves whether this call cancelled it.
   */
  async end(tenantId: string, requestId: string, status: string): Promise<boolean> {
    const instance = await this.instances.instanceByBusinessKey(tenantId, PERMISSION_REQUEST_DEFINITION_KEY, requestId);
    if (!instance || (instance.status !== 'Running' && instance.status !== 'Suspended')) return false;
    try {
      await this.runtime.operate(permissionRequestFlowCaller(tenantId), instance.id, 'cancel', {
        reason: `The permission request was ${status} outside this workflow.`,
      });
      return true;
    } catch (error) {
      // Ended meanwhile (its own last vote, or a manager): nothing left to cancel.
      if (error instanceof InvalidStateError) return false;
      throw error;
    }
  }

  /** Four eyes: the approver roles' members, without the requester. */
  private async approvers(tenantId: string, requester: string): Promise<string[]> {
    const members = new Set<string>();
    for (const role of PERMISSION_APPROVER_ROLES) for (const subject of await this.directory.membersOfRole(tenantId, role)) members.add(subject);
    members.delete(requester);
    return [...members];
  }
}
