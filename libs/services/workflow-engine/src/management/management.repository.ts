import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { withHistoryRemoval } from '../history/history-removal';
import { INSTANCE_STATUSES, TASK_STATUSES } from '../store';
import type { InstanceStatus, TaskStatus } from '../store';
import type { TaskRow } from '../runtime/runtime.repository';
import type { WalkPosition } from '../runtime/runtime-walk';

/** The states an instance never leaves: only these may be deleted, and only these may outlive their definition version. */
export const TERMINAL_STATUSES = ['Approved', 'Rejected', 'Withdrawn', 'Terminated', 'Cancelled'] as const satisfies readonly InstanceStatus[];
const TERMINAL = `('Approved', 'Rejected', 'Withdrawn', 'Terminated', 'Cancelled')`;
const TASK = `t."id", t."tenant_id", t."instance_id", t."node_key", t."visit", t."seq", t."assignee", t."owner", t."status", t."comment", t."read_at", t."decided_at", t."decided_by", t."created_at"`;

export interface EngineStatistics {
  instances: { total: number; byStatus: Record<InstanceStatus, number>; imported: number };
  tasks: {
    total: number;
    open: number;
    byStatus: Record<TaskStatus, number>;
    openAssignees: number;
    oldestOpenCreatedAt: string | null;
    oldestOpenAgeSeconds: number | null;
  };
  definitions: { keys: number; versions: number; bindings: number; grayscaleBindings: number; drafts: number; versionsInUse: number };
}

export interface ImportRecord {
  instance_id: string;
  checksum: string;
}

/** A legacy instance as it is written (docs/management.md, Legacy import). */
export interface ImportedInstanceRow {
  id: string;
  tenantId: string;
  definitionKey: string;
  versionId: string;
  businessKey: string;
  initiator: string;
  status: InstanceStatus;
  variables: Record<string, unknown>;
  position: WalkPosition;
  priority: number;
  createdAt: string;
  endedAt: string | null;
}

export interface ImportedTaskRow {
  nodeKey: string;
  visit: number;
  seq: number;
  assignee: string;
  status: TaskStatus;
  comment: string | null;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
}

/**
 * The management routes' own queries (the runtime's and the definitions' repositories serve the rest).
 * Every query names the tenant; the methods taking a manager run inside the caller's transaction.
 */
@Injectable()
export class ManagementRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Engine statistics of one tenant, each figure one SQL aggregate (no rows are read into the process). */
  async statistics(tenantId: string): Promise<EngineStatistics> {
    const q = this.dataSource.manager;
    const instanceRows: Array<{ status: InstanceStatus; n: number }> = await q.query(
      `SELECT "status", count(*)::int AS n FROM "workflow"."instance" WHERE "tenant_id" = $1 GROUP BY "status"`,
      [tenantId],
    );
    const taskRows: Array<{ status: TaskStatus; n: number }> = await q.query(
      `SELECT "status", count(*)::int AS n FROM "workflow"."task" WHERE "tenant_id" = $1 GROUP BY "status"`,
      [tenantId],
    );
    const [open]: Array<{ assignees: number; oldest: Date | null; age: number | null }> = await q.query(
      `SELECT count(DISTINCT "assignee")::int AS assignees, min("created_at") AS oldest,
              floor(extract(epoch FROM now() - min("created_at")))::int AS age
         FROM "workflow"."task" WHERE "tenant_id" = $1 AND "status" = 'Pending'`,
      [tenantId],
    );
    const [definitions]: Array<Record<'keys' | 'versions' | 'bindings' | 'grayscale' | 'drafts' | 'in_use' | 'imported', number>> = await q.query(
      `SELECT (SELECT count(*)::int FROM "workflow"."definition" WHERE "tenant_id" = $1) AS keys,
              (SELECT count(*)::int FROM "workflow"."definition_version" WHERE "tenant_id" = $1) AS versions,
              (SELECT count(*)::int FROM "workflow"."definition_binding" WHERE "tenant_id" = $1) AS bindings,
              (SELECT count(*)::int FROM "workflow"."definition_binding" WHERE "tenant_id" = $1 AND "status" = 'grayscale') AS grayscale,
              (SELECT count(*)::int FROM "workflow"."definition_draft" WHERE "tenant_id" = $1) AS drafts,
              (SELECT count(DISTINCT "definition_version_id")::int FROM "workflow"."instance" WHERE "tenant_id" = $1 AND "status" NOT IN ${TERMINAL}) AS in_use,
              (SELECT count(*)::int FROM "workflow"."legacy_import" WHERE "tenant_id" = $1) AS imported`,
      [tenantId],
    );
    const counts = <S extends string>(all: readonly S[], rows: Array<{ status: S; n: number }>) =>
      Object.fromEntries(all.map((s) => [s, rows.find((r) => r.status === s)?.n ?? 0])) as Record<S, number>;
    const sum = (rows: Array<{ n: number }>) => rows.reduce((total, r) => total + r.n, 0);
    const taskCounts = counts(TASK_STATUSES, taskRows);
    return {
      instances: { total: sum(instanceRows), byStatus: counts(INSTANCE_STATUSES, instanceRows), imported: definitions?.imported ?? 0 },
      tasks: {
        total: sum(taskRows),
        open: taskCounts.Pending,
        byStatus: taskCounts,
        openAssignees: open?.assignees ?? 0,
        oldestOpenCreatedAt: open?.oldest?.toISOString() ?? null,
        oldestOpenAgeSeconds: open?.age ?? null,
      },
      definitions: {
        keys: definitions?.keys ?? 0,
        versions: definitions?.versions ?? 0,
        bindings: definitions?.bindings ?? 0,
        grayscaleBindings: definitions?.grayscale ?? 0,
        drafts: definitions?.drafts ?? 0,
        versionsInUse: definitions?.in_use ?? 0,
      },
    };
  }

  // ---- legacy import ---------------------------------------------------------------------------

  async importRecord(tenantId: string, sourceId: string, manager?: EntityManager): Promise<ImportRecord | undefined> {
    const rows: ImportRecord[] = await (manager ?? this.dataSource.manager).query(
      `SELECT "instance_id", "checksum" FROM "workflow"."legacy_import" WHERE "tenant_id" = $1 AND "source_id" = $2`,
      [tenantId, sourceId],
    );
    return rows[0];
  }

  /**
   * Claims the source id for this import: false when another import holds it already. A concurrent
   * import of the same source waits here on the primary key until the first one commits or rolls back.
   */
  async claimImport(manager: EntityManager, row: { tenantId: string; sourceId: string; instanceId: string; checksum: string; by: string }): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO "workflow"."legacy_import" ("tenant_id", "source_id", "instance_id", "checksum", "imported_by") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("tenant_id", "source_id") DO NOTHING RETURNING "source_id"`,
      [row.tenantId, row.sourceId, row.instanceId, row.checksum, row.by],
    );
    return rows.length > 0;
  }

  /** False when the definition already has an instance with the business key (the runtime's uniqueness). */
  async insertImportedInstance(manager: EntityManager, row: ImportedInstanceRow): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO "workflow"."instance"
         ("id", "tenant_id", "definition_key", "definition_version_id", "business_key", "initiator", "status", "variables", "position", "priority", "version",
          "created_at", "updated_at", "ended_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, 1, $11, now(), $12)
       ON CONFLICT ("tenant_id", "definition_key", "business_key") DO NOTHING RETURNING "id"`,
      [
        row.id,
        row.tenantId,
        row.definitionKey,
        row.versionId,
        row.businessKey,
        row.initiator,
        row.status,
        JSON.stringify(row.variables),
        JSON.stringify(row.position),
        row.priority,
        row.createdAt,
        row.endedAt,
      ],
    );
    return rows.length > 0;
  }

  async insertImportedTask(manager: EntityManager, tenantId: string, instanceId: string, task: ImportedTaskRow): Promise<TaskRow> {
    const rows: TaskRow[] = await manager.query(
      `INSERT INTO "workflow"."task" AS t ("id", "tenant_id", "instance_id", "node_key", "visit", "seq", "assignee", "status", "comment", "created_at", "decided_at", "decided_by")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${TASK}`,
      [
        randomUUID(),
        tenantId,
        instanceId,
        task.nodeKey,
        task.visit,
        task.seq,
        task.assignee,
        task.status,
        task.comment,
        task.createdAt,
        task.decidedAt,
        task.decidedBy,
      ],
    );
    const created = rows[0];
    if (!created) throw new Error('no task row returned');
    return created;
  }

  // ---- deletions -------------------------------------------------------------------------------

  /** The version row locked until the transaction ends (after the key's lock: the definitions' lock order). */
  async lockVersion(
    manager: EntityManager,
    tenantId: string,
    id: string,
  ): Promise<{ id: string; key: string; version: number; checksum: string; source: string } | undefined> {
    const rows: Array<{ id: string; key: string; version: number; checksum: string; source: string }> = await manager.query(
      `SELECT "id", "key", "version", "checksum", "source" FROM "workflow"."definition_version" WHERE "tenant_id" = $1 AND "id" = $2 FOR UPDATE`,
      [tenantId, id],
    );
    return rows[0];
  }

  /** The instances on the version that have not ended, locked (the runtime's instance lock) so none changes while the deletion decides. */
  async lockUnendedOnVersion(manager: EntityManager, tenantId: string, versionId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT "id" FROM "workflow"."instance" WHERE "tenant_id" = $1 AND "definition_version_id" = $2 AND "status" NOT IN ${TERMINAL} ORDER BY "id" FOR UPDATE`,
      [tenantId, versionId],
    );
    return rows.map((r) => r.id);
  }

  async countInstancesOnVersion(manager: EntityManager, tenantId: string, versionId: string): Promise<number> {
    const [row]: Array<{ n: number }> = await manager.query(
      `SELECT count(*)::int AS n FROM "workflow"."instance" WHERE "tenant_id" = $1 AND "definition_version_id" = $2`,
      [tenantId, versionId],
    );
    return row?.n ?? 0;
  }

  /** Moves the key's binding off a version being deleted: `active`/`previous` as given, or the binding goes when nothing stays active. */
  async rebind(manager: EntityManager, tenantId: string, key: string, active: string | null, previous: string | null, by: string): Promise<void> {
    if (active === null) {
      await manager.query(`DELETE FROM "workflow"."definition_binding" WHERE "tenant_id" = $1 AND "key" = $2`, [tenantId, key]);
      return;
    }
    await manager.query(
      `UPDATE "workflow"."definition_binding" SET "active_version_id" = $3, "previous_version_id" = $4, "status" = 'active', "updated_by" = $5, "updated_at" = now()
        WHERE "tenant_id" = $1 AND "key" = $2`,
      [tenantId, key, active, previous, by],
    );
  }

  /** Deletes the deployment history rows naming the version (they would name a version that no longer exists); answers what they said. */
  async deleteDeploymentsOf(manager: EntityManager, tenantId: string, versionId: string): Promise<Array<Record<string, unknown>>> {
    const [rows]: [Array<Record<string, unknown>>, number] = await manager.query(
      `DELETE FROM "workflow"."definition_deployment" WHERE "tenant_id" = $1 AND ("from_version_id" = $2 OR "to_version_id" = $2)
       RETURNING "action", "from_version_id" AS "from", "to_version_id" AS "to", "actor", "at"`,
      [tenantId, versionId],
    );
    return rows;
  }

  async deleteVersion(manager: EntityManager, tenantId: string, versionId: string): Promise<void> {
    await manager.query(`DELETE FROM "workflow"."definition_version" WHERE "tenant_id" = $1 AND "id" = $2`, [tenantId, versionId]);
  }

  /**
   * Deletes the instance (locked by the caller), its tasks, its event log and its import record;
   * answers how many tasks went. The outbox and the administrative audit are not touched.
   */
  async deleteInstance(manager: EntityManager, tenantId: string, instanceId: string): Promise<number> {
    await withHistoryRemoval(manager, 'purge', () =>
      manager.query(`DELETE FROM "workflow"."instance_event" WHERE "tenant_id" = $1 AND "instance_id" = $2`, [tenantId, instanceId]),
    );
    const [, tasks]: [unknown[], number] = await manager.query(`DELETE FROM "workflow"."task" WHERE "tenant_id" = $1 AND "instance_id" = $2`, [
      tenantId,
      instanceId,
    ]);
    await manager.query(`DELETE FROM "workflow"."legacy_import" WHERE "tenant_id" = $1 AND "instance_id" = $2`, [tenantId, instanceId]);
    await manager.query(`DELETE FROM "workflow"."instance" WHERE "tenant_id" = $1 AND "id" = $2`, [tenantId, instanceId]);
    return tasks;
  }

  // ---- candidate refresh -----------------------------------------------------------------------

  /** Every task of one node visit (all states), oldest first. */
  async tasksOfVisit(manager: EntityManager, tenantId: string, instanceId: string, nodeKey: string, visit: number): Promise<TaskRow[]> {
    return manager.query(
      `SELECT ${TASK} FROM "workflow"."task" t WHERE t."tenant_id" = $1 AND t."instance_id" = $2 AND t."node_key" = $3 AND t."visit" = $4
        ORDER BY t."created_at", t."seq"`,
      [tenantId, instanceId, nodeKey, visit],
    );
  }

  /** Cancels one open task (its holder left the node's assignees); false when it was no longer Pending. */
  async cancelTask(manager: EntityManager, tenantId: string, taskId: string): Promise<boolean> {
    const [, n]: [unknown[], number] = await manager.query(
      `UPDATE "workflow"."task" SET "status" = 'Cancelled', "decided_at" = clock_timestamp() WHERE "tenant_id" = $1 AND "id" = $2 AND "status" = 'Pending' RETURNING "id"`,
      [tenantId, taskId],
    );
    return n > 0;
  }

  /** An open task follows its seat to a new place in the seat list (a seat before it was removed). */
  async moveSeat(manager: EntityManager, tenantId: string, taskId: string, seq: number): Promise<void> {
    await manager.query(`UPDATE "workflow"."task" SET "seq" = $3 WHERE "tenant_id" = $1 AND "id" = $2 AND "status" = 'Pending'`, [tenantId, taskId, seq]);
  }

  /** Versions of the tenant with instances that have not ended, with their JSON: where a role's open approvals can be. */
  async versionsInUse(tenantId: string): Promise<Array<{ id: string; definition: Record<string, unknown> }>> {
    return this.dataSource.manager.query(
      `SELECT v."id", v."definition" FROM "workflow"."definition_version" v
        WHERE v."tenant_id" = $1 AND EXISTS (
          SELECT 1 FROM "workflow"."instance" i WHERE i."tenant_id" = v."tenant_id" AND i."definition_version_id" = v."id" AND i."status" IN ('Running', 'Suspended'))`,
      [tenantId],
    );
  }

  /** Running or Suspended instances on the version waiting at one of the nodes, oldest first. */
  async instancesWaitingAt(tenantId: string, versionId: string, nodeKeys: string[]): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.manager.query(
      `SELECT "id" FROM "workflow"."instance"
        WHERE "tenant_id" = $1 AND "definition_version_id" = $2 AND "status" IN ('Running', 'Suspended') AND ("position"->'parked') ?| $3::text[]
        ORDER BY "created_at", "id"`,
      [tenantId, versionId, nodeKeys],
    );
    return rows.map((r) => r.id);
  }
}
