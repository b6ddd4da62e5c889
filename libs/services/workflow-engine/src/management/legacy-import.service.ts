import { createHash, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TrustedCaller, WorkflowManagementEvents, WorkflowRuntimeEvents } from '@lp/contracts';
import { FeatureGate } from '@lp/authz-guard';
import { OutboxWriter } from '@lp/platform/messaging';
import { DefinitionGraph, definitionSchema } from '../engine';
import { canonicalJson } from '../definitions/definition-rules';
import { DefinitionsRepository } from '../definitions/definitions.repository';
import { AdminAuditTrail } from '../runtime/admin-audit';
import { VariablesTooLargeError } from '../runtime/runtime-errors';
import { RuntimeRepository } from '../runtime/runtime.repository';
import { actorOf, instanceOf, MAX_VARIABLES_BYTES } from '../runtime/runtime.service';
import type { InstanceResponse } from '../runtime/dto/runtime.responses';
import { WORKFLOW_RUNTIME_FEATURE } from '../runtime-feature/workflow-runtime.guard';
import { LegacyImport } from './dto/legacy-import.dto';
import { planImport } from './legacy-import.plan';
import { ImportBusinessKeyTakenError, ImportInvalidError, ImportSourceConflictError, ImportSourceArchivedError } from './management-errors';
import { ManagementRepository } from './management.repository';

/**
 * Imports one legacy instance into the tenant its body names (docs/management.md, Legacy import):
 * checked against the definition version, then written in one transaction (instance, tasks, the
 * source record, the events, the audit row) or not at all. Idempotent by (tenant, source id): the
 * same body again answers the first instance and changes nothing; another body is 409.
 */
@Injectable()
export class LegacyImportService {
  private readonly logger = new Logger(LegacyImportService.name);
  private readonly audit = new AdminAuditTrail();

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ManagementRepository,
    private readonly runtime: RuntimeRepository,
    private readonly definitions: DefinitionsRepository,
    private readonly outbox: OutboxWriter,
    private readonly features: FeatureGate,
  ) {}

  async import(caller: TrustedCaller, body: LegacyImport): Promise<{ instance: InstanceResponse; created: boolean }> {
    const actor = actorOf(caller);
    const { tenantId, sourceId } = body;
    // The write lands in the body's tenant, so that tenant's gate applies too (the route's own gate checked the caller's).
    await this.features.require({ ...caller, tenantId }, WORKFLOW_RUNTIME_FEATURE);
    const checksum = createHash('sha256').update(canonicalJson(body)).digest('hex');
    const earlier = await this.repository.importRecord(tenantId, sourceId);
    if (earlier) return { instance: await this.importedBefore(tenantId, sourceId, earlier, checksum), created: false };

    const version = await this.version(body);
    const graph = DefinitionGraph.of(definitionSchema.parse(version.definition));
    const planned = planImport(graph, body, new Date());
    if ('problems' in planned) throw new ImportInvalidError(planned.problems);
    if (Buffer.byteLength(JSON.stringify(body.variables), 'utf8') > MAX_VARIABLES_BYTES) throw new VariablesTooLargeError(MAX_VARIABLES_BYTES);
    const { plan } = planned;

    return this.dataSource.transaction(async (manager) => {
      const instanceId = randomUUID();
      if (!(await this.repository.claimImport(manager, { tenantId, sourceId, instanceId, checksum, by: actor }))) {
        // A concurrent import of the same source committed first: answer as a repeated import would.
        const record = await this.repository.importRecord(tenantId, sourceId, manager);
        if (!record) throw new Error(`import of source ${sourceId} vanished after a conflict`);
        return { instance: await this.importedBefore(tenantId, sourceId, record, checksum), created: false };
      }
      const inserted = await this.repository.insertImportedInstance(manager, {
        id: instanceId,
        tenantId,
        definitionKey: version.key,
        versionId: version.id,
        businessKey: body.businessKey,
        initiator: body.initiator,
        status: body.status,
        variables: body.variables,
        position: plan.position,
        priority: body.priority,
        createdAt: body.createdAt,
        endedAt: body.endedAt ?? null,
      });
      if (!inserted) throw new ImportBusinessKeyTakenError(version.key, body.businessKey);
      for (const task of plan.tasks) {
        const row = await this.repository.insertImportedTask(manager, tenantId, instanceId, task);
        if (row.status !== 'Pending') continue;
        await this.outbox.addEvent(
          manager,
          WorkflowRuntimeEvents.taskCreated,
          { tenantId, taskId: row.id, instanceId, nodeKey: row.node_key, visit: row.visit, assignee: row.assignee },
          tenantId,
        );
      }
      const payload = {
        tenantId,
        instanceId,
        sourceId,
        definitionKey: version.key,
        definitionId: version.id,
        businessKey: body.businessKey,
        initiator: body.initiator,
        status: body.status,
        tasks: plan.tasks.length,
        by: actor,
      };
      await this.outbox.addEvent(manager, WorkflowManagementEvents.instanceImported, payload, tenantId);
      await this.audit.record(manager, caller, {
        operation: 'import-instance',
        tenantId,
        instanceId,
        before: null,
        after: { sourceId, checksum, status: body.status, definitionId: version.id, open: Object.keys(plan.position.parked), tasks: plan.tasks.length },
      });
      const saved = await this.runtime.instance(tenantId, instanceId, manager);
      if (!saved) throw new Error(`imported instance ${instanceId} is not readable in its own transaction`);
      this.logger.log(`instance ${instanceId} imported from source ${sourceId} into tenant ${tenantId} by ${actor}: ${body.status}`);
      return { instance: instanceOf(saved), created: true };
    });
  }

  /** A source imported before: the same body answers its instance; another body is a conflict. */
  private async importedBefore(
    tenantId: string,
    sourceId: string,
    record: { instance_id: string; checksum: string },
    checksum: string,
  ): Promise<InstanceResponse> {
    if (record.checksum.trim() !== checksum) throw new ImportSourceConflictError(sourceId, record.instance_id);
    const instance = await this.runtime.instance(tenantId, record.instance_id);
    // The import record outlives the instance's move to the archive (deletion and retention remove it).
    if (!instance) throw new ImportSourceArchivedError(sourceId, record.instance_id);
    return instanceOf(instance);
  }

  /** The version the import names, in the import's tenant; absent is a 422 naming the field. */
  private async version(body: LegacyImport): Promise<{ id: string; key: string; definition: Record<string, unknown> }> {
    const found =
      body.definitionId !== undefined
        ? await this.definitions.versionById(body.tenantId, body.definitionId)
        : await this.definitions
            .versionByNumber(body.tenantId, body.definitionKey as string, body.version as number)
            .then((v) => (v ? this.definitions.versionById(body.tenantId, v.id) : undefined));
    if (!found?.definition) {
      const field = body.definitionId !== undefined ? 'definitionId' : 'version';
      const what = body.definitionId !== undefined ? `definition version ${body.definitionId}` : `version ${body.version} of "${body.definitionKey}"`;
      throw new ImportInvalidError({ [field]: [`${what} does not exist in tenant "${body.tenantId}"`] });
    }
    return { id: found.id, key: found.key, definition: found.definition };
  }
}
