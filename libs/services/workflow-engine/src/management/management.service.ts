import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthorizationAction, NotFoundError, TrustedCaller, WorkflowManagementEvents, WorkflowRuntimeEvents } from '@lp/contracts';
import { PermissionCheck } from '@lp/authz-guard';
import { OutboxWriter } from '@lp/platform/messaging';
import { DefinitionsRepository } from '../definitions/definitions.repository';
import { AdminAuditTrail } from '../runtime/admin-audit';
import { InvalidStateError } from '../runtime/runtime-errors';
import { RuntimeRepository } from '../runtime/runtime.repository';
import { actorOf } from '../runtime/runtime.service';
import { DefinitionInUseError } from './management-errors';
import { EngineStatistics, ManagementRepository, TERMINAL_STATUSES } from './management.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Forcing a deletion is a platform administrator's: a platform-level permission, decided Deny outside the platform tenant. */
export const FORCE_DELETE = { module: 'workflow', resource: 'management', action: AuthorizationAction.Delete } as const;

export interface DefinitionDeletion {
  definitionId: string;
  key: string;
  version: number;
  forced: boolean;
  terminatedInstances: string[];
  keptInstances: number;
  removedDeployments: number;
  binding: { activeDefinitionId: string | null; previousDefinitionId: string | null } | null;
}

/**
 * Statistics and the two deletions of the management routes (docs/management.md). Each deletion runs
 * in one transaction under the locks the runtime and the definitions take (the key's anchor row, the
 * version, the instances), writes its event and its `workflow.admin_audit` row there, or nothing.
 */
@Injectable()
export class ManagementService {
  private readonly logger = new Logger(ManagementService.name);
  private readonly audit = new AdminAuditTrail();

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ManagementRepository,
    private readonly runtime: RuntimeRepository,
    private readonly definitions: DefinitionsRepository,
    private readonly outbox: OutboxWriter,
    private readonly permissions: PermissionCheck,
  ) {}

  async statistics(caller: TrustedCaller): Promise<EngineStatistics & { tenantId: string; generatedAt: string }> {
    return { tenantId: caller.tenantId, ...(await this.repository.statistics(caller.tenantId)), generatedAt: new Date().toISOString() };
  }

  /**
   * Deletes a definition version. Refused (409 `Workflow.Definition.InUse`) while instances that have
   * not ended run on it or its key's binding names it; `force` (platform administrators) terminates
   * those instances and moves the binding off it instead. Terminal instances on it are kept, with
   * their tasks and their definition id; the deployment history rows naming it go.
   */
  async deleteDefinition(caller: TrustedCaller, definitionId: string, force: boolean): Promise<DefinitionDeletion> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    if (!UUID.test(definitionId)) throw new NotFoundError('Definition version');
    const summary = await this.definitions.versionById(tenantId, definitionId);
    if (!summary) throw new NotFoundError('Definition version');
    // Before anything is written: a refusal leaves nothing behind.
    if (force) await this.permissions.require(caller, { ...FORCE_DELETE, facts: { resourceId: definitionId } });
    return this.dataSource.transaction(async (manager) => {
      await this.definitions.lockExistingDefinition(manager, tenantId, summary.key);
      const version = await this.repository.lockVersion(manager, tenantId, definitionId);
      if (!version) throw new NotFoundError('Definition version');
      const binding = await this.definitions.binding(tenantId, version.key, manager, true);
      const role = binding?.active_version_id === version.id ? 'active' : binding?.previous_version_id === version.id ? 'previous' : null;
      const unended = await this.repository.lockUnendedOnVersion(manager, tenantId, version.id);
      if (!force && (unended.length > 0 || role !== null)) throw new DefinitionInUseError(version.id, { runningInstances: unended.length, binding: role });

      const reason = `definition version ${version.key} v${version.version} (${version.id}) deleted`;
      for (const instanceId of unended) {
        const instance = await this.runtime.lockInstance(manager, tenantId, instanceId);
        if (!instance) continue;
        await this.runtime.cancelPending(manager, instance.id);
        await this.runtime.saveInstance(manager, { ...instance, status: 'Terminated' });
        await this.outbox.addEvent(
          manager,
          WorkflowRuntimeEvents.instanceTerminated,
          {
            tenantId,
            instanceId,
            definitionKey: instance.definition_key,
            businessKey: instance.business_key,
            from: instance.status,
            to: 'Terminated',
            by: actor,
            reason,
          },
          tenantId,
        );
      }
      let after: DefinitionDeletion['binding'] = binding
        ? { activeDefinitionId: binding.active_version_id, previousDefinitionId: binding.previous_version_id }
        : null;
      if (binding && role === 'active') {
        // The previous version takes over (as a rollback would); with none, the key has no active version any more.
        after = binding.previous_version_id ? { activeDefinitionId: binding.previous_version_id, previousDefinitionId: null } : null;
        await this.repository.rebind(manager, tenantId, version.key, after?.activeDefinitionId ?? null, null, actor);
      } else if (binding && role === 'previous') {
        after = { activeDefinitionId: binding.active_version_id, previousDefinitionId: null };
        await this.repository.rebind(manager, tenantId, version.key, binding.active_version_id, null, actor);
      }
      const deployments = await this.repository.deleteDeploymentsOf(manager, tenantId, version.id);
      const keptInstances = await this.repository.countInstancesOnVersion(manager, tenantId, version.id);
      await this.repository.deleteVersion(manager, tenantId, version.id);

      const result: DefinitionDeletion = {
        definitionId: version.id,
        key: version.key,
        version: version.version,
        forced: force,
        terminatedInstances: unended,
        keptInstances,
        removedDeployments: deployments.length,
        binding: after,
      };
      await this.outbox.addEvent(
        manager,
        WorkflowManagementEvents.definitionDeleted,
        {
          tenantId,
          definitionId: version.id,
          key: version.key,
          version: version.version,
          forced: force,
          terminatedInstances: unended,
          activeDefinitionId: after?.activeDefinitionId ?? null,
          previousDefinitionId: after?.previousDefinitionId ?? null,
          by: actor,
        },
        tenantId,
      );
      await this.audit.record(manager, caller, {
        operation: 'delete-definition',
        definitionId: version.id,
        before: {
          key: version.key,
          version: version.version,
          checksum: version.checksum.trim(),
          source: version.source,
          binding: binding ? { active: binding.active_version_id, previous: binding.previous_version_id, status: binding.status } : null,
          deployments,
        },
        after: { forced: force, terminatedInstances: unended, keptInstances, binding: after },
        reason: force ? 'force' : null,
      });
      return result;
    });
  }

  /** Deletes a terminal instance and its tasks (409 `Workflow.InvalidState` otherwise); its audit rows and outbox rows stay. */
  async deleteInstance(caller: TrustedCaller, instanceId: string): Promise<{ instanceId: string; status: string; deletedTasks: number }> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    if (!UUID.test(instanceId)) throw new NotFoundError('Instance');
    return this.dataSource.transaction(async (manager) => {
      const instance = await this.runtime.lockInstance(manager, tenantId, instanceId);
      if (!instance) throw new NotFoundError('Instance');
      if (!(TERMINAL_STATUSES as readonly string[]).includes(instance.status))
        throw new InvalidStateError(`The instance is ${instance.status}: only an ended instance (${TERMINAL_STATUSES.join(', ')}) can be deleted.`);
      const deletedTasks = await this.repository.deleteInstance(manager, tenantId, instance.id);
      await this.outbox.addEvent(
        manager,
        WorkflowManagementEvents.instanceDeleted,
        {
          tenantId,
          instanceId,
          definitionKey: instance.definition_key,
          businessKey: instance.business_key,
          status: instance.status,
          tasks: deletedTasks,
          by: actor,
        },
        tenantId,
      );
      await this.audit.record(manager, caller, {
        operation: 'delete-instance',
        instanceId,
        before: {
          status: instance.status,
          definitionKey: instance.definition_key,
          definitionId: instance.definition_version_id,
          businessKey: instance.business_key,
          initiator: instance.initiator,
          createdAt: instance.created_at.toISOString(),
          endedAt: instance.ended_at?.toISOString() ?? null,
          tasks: deletedTasks,
        },
        after: { deleted: true },
      });
      this.logger.log(`instance ${instanceId} (${instance.status}) deleted with ${deletedTasks} task(s) by ${actor} in tenant ${tenantId}`);
      return { instanceId, status: instance.status, deletedTasks };
    });
  }
}
