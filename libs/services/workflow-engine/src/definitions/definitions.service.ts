import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DefinitionDeploymentChangedPayload, NotFoundError, Page, TrustedCaller, WorkflowDefinitionEvents } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { pageOf, PageQuery, pageWindow } from '@lp/platform/http';
import { OutboxWriter } from '@lp/platform/messaging';
import { AssigneeDirectory, compileDefinition, SimulationRequest, simulateDefinition, validateDefinition, WorkflowDefinition } from '../engine';
import type { VersionSource } from '../store';
import { WorkflowEngineConfig, workflowEngineConfig } from '../workflow-engine.config';
import { ASSIGNEE_DIRECTORY } from './assignee-directory';
import {
  AlreadyActiveError,
  DefinitionInvalidError,
  DefinitionTooLargeError,
  NotInGrayscaleError,
  NothingToRollBackError,
  RevisionConflictError,
} from './definition-errors';
import { DefinitionLimits, definitionChecksum, definitionLimitProblem } from './definition-rules';
import { BindingRow, DefinitionsRepository, DeploymentRow, DraftRow, VersionRow } from './definitions.repository';
import type {
  ActiveDefinitionResponse,
  BindingResponse,
  DeploymentEntryResponse,
  DeploymentsResponse,
  DraftResponse,
  PublishResponse,
  SimulationResponse,
  ValidationResponse,
  VersionResponse,
  VersionSummary,
} from './dto/definition.responses';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who the row names: the acting subject for a delegated caller, the subject otherwise. */
const actorOf = (caller: TrustedCaller) => caller.actor ?? caller.subject;

function summaryOf(row: VersionRow): VersionSummary {
  return {
    id: row.id,
    key: row.key,
    version: row.version,
    checksum: row.checksum.trim(),
    source: row.source,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

function versionOf(row: VersionRow): VersionResponse {
  return { ...summaryOf(row), definition: row.definition ?? {} };
}

function draftOf(row: DraftRow): DraftResponse {
  return { key: row.key, revision: row.revision, definition: row.definition, updatedBy: row.updated_by, updatedAt: row.updated_at.toISOString() };
}

function deploymentOf(row: DeploymentRow): DeploymentEntryResponse {
  return {
    id: row.id,
    action: row.action,
    fromVersionId: row.from_version_id,
    fromVersion: row.from_version,
    toVersionId: row.to_version_id,
    toVersion: row.to_version,
    actor: row.actor,
    at: row.at.toISOString(),
  };
}

/**
 * Workflow definitions (docs/definitions.md): drafts with optimistic revisions, validation and
 * simulation through the engine core, immutable versions, and the binding that says which version
 * is active. Every method takes the tenant from the trusted caller; every version and binding
 * change runs in one transaction under the key's lock, together with its history row and event.
 */
@Injectable()
export class DefinitionsService {
  private readonly logger = new Logger(DefinitionsService.name);
  private readonly limits: DefinitionLimits;

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: DefinitionsRepository,
    private readonly outbox: OutboxWriter,
    @Inject(ASSIGNEE_DIRECTORY) private readonly directory: AssigneeDirectory,
    @InjectConfig(workflowEngineConfig) config: WorkflowEngineConfig,
  ) {
    this.limits = { maxBytes: config.WORKFLOW_DEFINITION_MAX_BYTES, maxNodes: config.WORKFLOW_DEFINITION_MAX_NODES };
  }

  // ---- drafts -------------------------------------------------------------------------------

  async getDraft(caller: TrustedCaller, key: string): Promise<DraftResponse> {
    return draftOf(await this.requireDraft(caller.tenantId, key));
  }

  /**
   * Saves the draft when `revision` is the stored one (0 or absent: create). The compare and the
   * write are one statement, so of two saves based on the same revision exactly one wins and the
   * other gets 409 with the revision to reload; nothing of the loser is stored.
   */
  async saveDraft(
    caller: TrustedCaller,
    key: string,
    revision: number,
    definition: Record<string, unknown>,
  ): Promise<{ draft: DraftResponse; created: boolean }> {
    this.checkLimits(definition);
    const row =
      revision === 0
        ? await this.repository.createDraft(caller.tenantId, key, definition, actorOf(caller))
        : await this.repository.updateDraft(caller.tenantId, key, revision, definition, actorOf(caller));
    if (!row) throw new RevisionConflictError(key, revision, await this.repository.currentDraftRevision(caller.tenantId, key));
    return { draft: draftOf(row), created: revision === 0 };
  }

  async deleteDraft(caller: TrustedCaller, key: string): Promise<void> {
    if (!(await this.repository.deleteDraft(caller.tenantId, key))) throw new NotFoundError(`The draft of "${key}"`);
  }

  async validateDraft(caller: TrustedCaller, key: string): Promise<ValidationResponse> {
    return this.validate((await this.requireDraft(caller.tenantId, key)).definition);
  }

  async simulateDraft(caller: TrustedCaller, key: string, request: SimulationRequest): Promise<SimulationResponse> {
    return this.simulate(caller, (await this.requireDraft(caller.tenantId, key)).definition, request, `The draft of "${key}"`);
  }

  /**
   * Validates the draft authoritatively and publishes it as the next version, in one transaction
   * that also removes the draft: what was published is no longer work in progress, and a draft
   * saved meanwhile (another revision) is refused by the lock and the revision check, not lost.
   */
  async publishDraft(caller: TrustedCaller, key: string, expectedRevision: number | undefined): Promise<PublishResponse> {
    const published = await this.dataSource.transaction(async (manager) => {
      const draft = await this.repository.draft(caller.tenantId, key, manager, true);
      if (!draft) throw new NotFoundError(`The draft of "${key}"`);
      if (expectedRevision !== undefined && draft.revision !== expectedRevision) throw new RevisionConflictError(key, expectedRevision, draft.revision);
      this.checkLimits(draft.definition);
      const compiled = this.requireValid(draft.definition, `The draft of "${key}"`);
      const result = await this.createVersion(manager, caller, key, compiled, 'publish');
      await this.repository.deleteDraft(caller.tenantId, key, manager);
      return result;
    });
    return this.publishResponse(caller.tenantId, key, published);
  }

  // ---- stateless validation and simulation -----------------------------------------------

  validate(definition: Record<string, unknown>): ValidationResponse {
    this.checkLimits(definition);
    const { valid, problems } = validateDefinition(definition);
    return { valid, problems };
  }

  /** Simulates a valid definition; nothing is written. An invalid one is 422 (the engine walks only valid graphs). */
  async simulate(caller: TrustedCaller, definition: Record<string, unknown>, request: SimulationRequest, what = 'The definition'): Promise<SimulationResponse> {
    this.checkLimits(definition);
    const compiled = this.requireValid(definition, what);
    return simulateDefinition(compiled, request, { tenantId: caller.tenantId, initiator: caller.subject, directory: this.directory });
  }

  // ---- versions and bindings ---------------------------------------------------------------

  async listVersions(caller: TrustedCaller, key: string, page: PageQuery): Promise<Page<VersionSummary>> {
    await this.requireDefinition(caller.tenantId, key);
    const [rows, total] = await this.repository.versionPage(caller.tenantId, key, pageWindow(page));
    return pageOf(rows.map(summaryOf), total, page);
  }

  async getVersion(caller: TrustedCaller, id: string): Promise<VersionResponse> {
    // Not a uuid: no such version (and no cast error from the database).
    const row = UUID.test(id) ? await this.repository.versionById(caller.tenantId, id.toLowerCase()) : undefined;
    if (!row) throw new NotFoundError(`Definition version "${id}"`);
    return versionOf(row);
  }

  async getActive(caller: TrustedCaller, key: string): Promise<ActiveDefinitionResponse> {
    const binding = await this.repository.binding(caller.tenantId, key);
    if (!binding) throw new NotFoundError(`Definition "${key}"`);
    const row = await this.repository.versionById(caller.tenantId, binding.active_version_id);
    if (!row) throw new Error(`binding of ${key} names a missing version`);
    return { ...versionOf(row), bindingStatus: binding.status };
  }

  async deployments(caller: TrustedCaller, key: string, page: PageQuery): Promise<DeploymentsResponse> {
    const binding = await this.repository.binding(caller.tenantId, key);
    if (!binding) throw new NotFoundError(`Definition "${key}"`);
    const [rows, total] = await this.repository.deploymentPage(caller.tenantId, key, pageWindow(page));
    return { binding: await this.bindingResponse(caller.tenantId, binding), history: pageOf(rows.map(deploymentOf), total, page) };
  }

  /** POST /{key}/deployments: a definition given in full, validated like a draft publish. */
  async publish(caller: TrustedCaller, key: string, definition: Record<string, unknown>): Promise<PublishResponse> {
    this.checkLimits(definition);
    const compiled = this.requireValid(definition, 'The definition');
    const published = await this.dataSource.transaction((manager) => this.createVersion(manager, caller, key, compiled, 'publish'));
    return this.publishResponse(caller.tenantId, key, published);
  }

  /**
   * Publishes a definition the engine ships (e.g. `permission-request`) unless the key has a binding
   * already: validated like a publish, checked and written under the key's lock, so concurrent first
   * uses seed one version and a tenant's own published version is never replaced. Resolves whether
   * this call published it.
   */
  async seed(caller: TrustedCaller, key: string, definition: Record<string, unknown>): Promise<boolean> {
    const compiled = this.requireValid(definition, 'The seeded definition');
    return this.dataSource.transaction(async (manager) => {
      await this.repository.lockDefinition(manager, caller.tenantId, key, actorOf(caller));
      if (await this.repository.binding(caller.tenantId, key, manager)) return false;
      await this.createVersion(manager, caller, key, compiled, 'publish');
      return true;
    });
  }

  /** The legacy snapshot deploy: only the structural compilation is required (spec §4). */
  async legacyDeploy(caller: TrustedCaller, key: string, definition: Record<string, unknown>): Promise<PublishResponse> {
    this.checkLimits(definition);
    const compiled = compileDefinition(definition);
    if (!compiled.ok) throw new DefinitionInvalidError(compiled.problems, 'The snapshot');
    const published = await this.dataSource.transaction((manager) => this.createVersion(manager, caller, key, compiled.definition, 'legacy-deploy'));
    return this.publishResponse(caller.tenantId, key, published);
  }

  /** Makes `version` active and keeps the current one as previous; status `grayscale` until completed (not percentage routing). */
  async grayscale(caller: TrustedCaller, key: string, version: number): Promise<BindingResponse> {
    return this.changeBinding(caller, key, async (manager, binding) => {
      const target = await this.repository.versionByNumber(caller.tenantId, key, version, manager);
      if (!target) throw new NotFoundError(`Version ${version} of "${key}"`);
      if (target.id === binding.active_version_id) throw new AlreadyActiveError(key, version);
      return { activeVersionId: target.id, previousVersionId: binding.active_version_id, status: 'grayscale', action: 'grayscale' };
    });
  }

  /** Promotes the status marker only: the active and previous versions stay (rollback remains possible). */
  async completeGrayscale(caller: TrustedCaller, key: string): Promise<BindingResponse> {
    return this.changeBinding(caller, key, async (_manager, binding) => {
      if (binding.status !== 'grayscale') throw new NotInGrayscaleError(key);
      return { activeVersionId: binding.active_version_id, previousVersionId: binding.previous_version_id, status: 'active', action: 'complete-grayscale' };
    });
  }

  /**
   * Restores the previous version as active. The version rolled back from is not kept as the new
   * previous: a rollback is not undone by a second rollback (that would toggle between two versions);
   * going forward again is an explicit grayscale or publish.
   */
  async rollback(caller: TrustedCaller, key: string): Promise<BindingResponse> {
    return this.changeBinding(caller, key, async (_manager, binding) => {
      if (!binding.previous_version_id) throw new NothingToRollBackError(key);
      return { activeVersionId: binding.previous_version_id, previousVersionId: null, status: 'active', action: 'rollback' };
    });
  }

  // ---- internals ---------------------------------------------------------------------------

  /**
   * Draws the next version number, inserts the version (in its compiled form: the engine's
   * defaults written out, so a default changed later never changes what a published version does), moves the binding (previous := the old
   * active) and records the deployment and the `workflow.definition.published` event, all under the
   * key's lock in the caller's transaction.
   */
  private async createVersion(
    manager: EntityManager,
    caller: TrustedCaller,
    key: string,
    definition: Record<string, unknown>,
    source: VersionSource,
  ): Promise<VersionRow> {
    const tenantId = caller.tenantId;
    const actor = actorOf(caller);
    await this.repository.lockDefinition(manager, tenantId, key, actor);
    const binding = await this.repository.binding(tenantId, key, manager, true);
    const checksum = definitionChecksum(definition);
    const created = await this.repository.insertVersion(manager, { tenantId, key, definition, checksum, source, actor });
    const previous = binding?.active_version_id ?? null;
    await this.repository.upsertBinding(manager, tenantId, key, { activeVersionId: created.id, previousVersionId: previous, status: 'active', actor });
    await this.repository.recordDeployment(manager, tenantId, key, { action: source, fromVersionId: previous, toVersionId: created.id, actor });
    await this.outbox.addEvent(
      manager,
      WorkflowDefinitionEvents.published,
      {
        tenantId,
        key,
        definitionId: created.id,
        version: created.version,
        checksum,
        source,
        previousDefinitionId: previous,
        publishedBy: actor,
      },
      tenantId,
    );
    this.logger.log(`definition ${key} v${created.version} (${created.id}) ${source} in tenant ${tenantId}`);
    return created;
  }

  /** One binding change under the key's lock, with its history row. */
  private async changeBinding(
    caller: TrustedCaller,
    key: string,
    decide: (
      manager: EntityManager,
      binding: BindingRow,
    ) => Promise<{
      activeVersionId: string;
      previousVersionId: string | null;
      status: 'active' | 'grayscale';
      action: DefinitionDeploymentChangedPayload['action'];
    }>,
  ): Promise<BindingResponse> {
    const tenantId = caller.tenantId;
    const actor = actorOf(caller);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.lockExistingDefinition(manager, tenantId, key))) throw new NotFoundError(`Definition "${key}"`);
      const binding = await this.repository.binding(tenantId, key, manager, true);
      if (!binding) throw new NotFoundError(`Definition "${key}"`);
      const next = await decide(manager, binding);
      await this.repository.upsertBinding(manager, tenantId, key, { ...next, actor });
      await this.repository.recordDeployment(manager, tenantId, key, {
        action: next.action,
        fromVersionId: binding.active_version_id,
        toVersionId: next.activeVersionId,
        actor,
      });
      const active = (await this.repository.versionsByIds(tenantId, [next.activeVersionId], manager)).get(next.activeVersionId);
      if (!active) throw new Error(`binding of ${key} names a missing version`);
      await this.outbox.addEvent(
        manager,
        WorkflowDefinitionEvents.deploymentChanged,
        {
          tenantId,
          key,
          action: next.action,
          status: next.status,
          activeDefinitionId: active.id,
          activeVersion: active.version,
          fromDefinitionId: binding.active_version_id,
          previousDefinitionId: next.previousVersionId,
          changedBy: actor,
        },
        tenantId,
      );
      this.logger.log(`definition ${key} ${next.action}: v${active.version} (${active.id}) active, status ${next.status}, in tenant ${tenantId}`);
    });
    const binding = await this.repository.binding(tenantId, key);
    if (!binding) throw new Error(`binding of ${key} vanished`);
    return this.bindingResponse(tenantId, binding);
  }

  private async publishResponse(tenantId: string, key: string, created: VersionRow): Promise<PublishResponse> {
    const binding = await this.repository.binding(tenantId, key);
    if (!binding) throw new Error(`binding of ${key} vanished`);
    return { version: summaryOf(created), binding: await this.bindingResponse(tenantId, binding) };
  }

  private async bindingResponse(tenantId: string, binding: BindingRow): Promise<BindingResponse> {
    const ids = [binding.active_version_id, ...(binding.previous_version_id ? [binding.previous_version_id] : [])];
    const versions = await this.repository.versionsByIds(tenantId, ids);
    const active = versions.get(binding.active_version_id);
    if (!active) throw new Error(`binding of ${binding.key} names a missing version`);
    const previous = binding.previous_version_id ? versions.get(binding.previous_version_id) : undefined;
    return {
      key: binding.key,
      status: binding.status,
      active: summaryOf(active),
      previous: previous ? summaryOf(previous) : null,
      updatedBy: binding.updated_by,
      updatedAt: binding.updated_at.toISOString(),
    };
  }

  private async requireDraft(tenantId: string, key: string): Promise<DraftRow> {
    const draft = await this.repository.draft(tenantId, key);
    if (!draft) throw new NotFoundError(`The draft of "${key}"`);
    return draft;
  }

  private async requireDefinition(tenantId: string, key: string): Promise<void> {
    if (!(await this.repository.definitionExists(tenantId, key))) throw new NotFoundError(`Definition "${key}"`);
  }

  private checkLimits(definition: Record<string, unknown>): void {
    const problem = definitionLimitProblem(definition, this.limits);
    if (problem) throw new DefinitionTooLargeError(problem);
  }

  /** Compiles and validates; the compiled definition when valid, else 422 with every problem. */
  private requireValid(definition: Record<string, unknown>, what: string): WorkflowDefinition {
    const validation = validateDefinition(definition);
    if (!validation.valid) throw new DefinitionInvalidError(validation.problems, what);
    const compiled = compileDefinition(definition);
    if (!compiled.ok) throw new DefinitionInvalidError(compiled.problems, what);
    return compiled.definition;
  }
}
