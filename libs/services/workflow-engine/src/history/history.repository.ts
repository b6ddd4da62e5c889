import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { withHistoryRemoval } from './history-removal';
import type { InstanceStatus } from '../store';
import type { InstanceRow, TaskRow } from '../runtime/runtime.repository';

/** An instance as history reads it: from the hot table, or from the archive with who moved it there and when. */
export interface HistoryInstanceRow extends InstanceRow {
  archived_at: Date | null;
  archived_by: string | null;
}

export interface InstanceEventRow {
  tenant_id: string;
  instance_id: string;
  seq: number;
  event_id: string;
  event_type: string;
  actor: string | null;
  task_id: string | null;
  node_key: string | null;
  comment: string | null;
  business_key: string;
  definition_key: string;
  payload: Record<string, unknown>;
  occurred_at: Date;
}

/** What a business key's instances add up to: the newest one, and how many there are by status. */
export interface BusinessKeyAggregate {
  latest: HistoryInstanceRow;
  byStatus: Array<{ status: InstanceStatus; n: number }>;
  definitionKeys: string[];
}

export interface PageWindow {
  skip: number;
  take: number;
}

const INSTANCE = `"id", "tenant_id", "definition_key", "definition_version_id", "business_key", "initiator", "status", "variables", "position", "priority", "version", "created_at", "updated_at", "ended_at"`;
const TASK = `"id", "tenant_id", "instance_id", "node_key", "visit", "seq", "assignee", "owner", "status", "comment", "read_at", "decided_at", "decided_by", "created_at"`;
const EVENT = `"tenant_id", "instance_id", "seq", "event_id", "event_type", "actor", "task_id", "node_key", "comment", "business_key", "definition_key", "payload", "occurred_at"`;

/** The instances of a tenant, hot and archived (an id is in exactly one of them). */
const ALL_INSTANCES = `(SELECT ${INSTANCE}, NULL::timestamptz AS "archived_at", NULL::varchar AS "archived_by" FROM "workflow"."instance" WHERE "tenant_id" = $1
   UNION ALL SELECT ${INSTANCE}, "archived_at", "archived_by" FROM "workflow"."instance_archive" WHERE "tenant_id" = $1)`;

/** The hot statuses the archive accepts. */
export const TERMINAL_STATUSES: readonly InstanceStatus[] = ['Approved', 'Rejected', 'Withdrawn', 'Terminated', 'Cancelled'];

/**
 * The history store: the event log and the archive (docs/history.md). Every read names the tenant
 * and reads the hot and the archive tables in one statement (`UNION ALL`), so an instance archived
 * between two reads is never missing from one of them, and an archived instance reads as before.
 */
@Injectable()
export class HistoryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async instance(tenantId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<HistoryInstanceRow | undefined> {
    const rows: HistoryInstanceRow[] = await manager.query(`SELECT * FROM ${ALL_INSTANCES} x WHERE x."id" = $2`, [tenantId, id]);
    return rows[0];
  }

  async tasks(tenantId: string, instanceId: string): Promise<TaskRow[]> {
    return this.dataSource.query(
      `SELECT * FROM (SELECT ${TASK} FROM "workflow"."task" WHERE "tenant_id" = $1 AND "instance_id" = $2
                      UNION ALL SELECT ${TASK} FROM "workflow"."task_archive" WHERE "tenant_id" = $1 AND "instance_id" = $2) t
        ORDER BY t."created_at", t."seq"`,
      [tenantId, instanceId],
    );
  }

  /** One instance's events in `seq` order (only the `types` given, when given), a page of them and how many there are. */
  async events(tenantId: string, instanceId: string, window: PageWindow, types?: readonly string[]): Promise<[InstanceEventRow[], number]> {
    const from = `(SELECT ${EVENT} FROM "workflow"."instance_event" WHERE "tenant_id" = $1 AND "instance_id" = $2
                   UNION ALL SELECT ${EVENT} FROM "workflow"."instance_event_archive" WHERE "tenant_id" = $1 AND "instance_id" = $2) e
                  WHERE ($3::varchar[] IS NULL OR e."event_type" = ANY ($3::varchar[]))`;
    const params = [tenantId, instanceId, types ?? null];
    const rows: InstanceEventRow[] = await this.dataSource.query(`SELECT * FROM ${from} ORDER BY e."seq" LIMIT $4 OFFSET $5`, [
      ...params,
      window.take,
      window.skip,
    ]);
    const total: Array<{ n: number }> = await this.dataSource.query(`SELECT count(*)::int AS n FROM ${from}`, params);
    return [rows, total[0]?.n ?? 0];
  }

  /** The events of every instance of a business key, newest first, a page of them and how many there are. */
  async businessEvents(tenantId: string, businessKey: string, window: PageWindow): Promise<[InstanceEventRow[], number]> {
    const from = `(SELECT ${EVENT} FROM "workflow"."instance_event" WHERE "tenant_id" = $1 AND "business_key" = $2
                   UNION ALL SELECT ${EVENT} FROM "workflow"."instance_event_archive" WHERE "tenant_id" = $1 AND "business_key" = $2) e`;
    const rows: InstanceEventRow[] = await this.dataSource.query(
      `SELECT * FROM ${from} ORDER BY e."occurred_at" DESC, e."instance_id", e."seq" DESC LIMIT $3 OFFSET $4`,
      [tenantId, businessKey, window.take, window.skip],
    );
    const total: Array<{ n: number }> = await this.dataSource.query(`SELECT count(*)::int AS n FROM ${from}`, [tenantId, businessKey]);
    return [rows, total[0]?.n ?? 0];
  }

  /** The business key's instances in the tenant, across definitions, summed up; undefined when it has none. */
  async businessKey(tenantId: string, businessKey: string): Promise<BusinessKeyAggregate | undefined> {
    const latest: HistoryInstanceRow[] = await this.dataSource.query(
      `SELECT * FROM ${ALL_INSTANCES} x WHERE x."business_key" = $2 ORDER BY x."created_at" DESC, x."id" LIMIT 1`,
      [tenantId, businessKey],
    );
    if (!latest[0]) return undefined;
    const byStatus: Array<{ status: InstanceStatus; n: number }> = await this.dataSource.query(
      `SELECT x."status", count(*)::int AS n FROM ${ALL_INSTANCES} x WHERE x."business_key" = $2 GROUP BY x."status" ORDER BY x."status"`,
      [tenantId, businessKey],
    );
    const keys: Array<{ definition_key: string }> = await this.dataSource.query(
      `SELECT DISTINCT x."definition_key" FROM ${ALL_INSTANCES} x WHERE x."business_key" = $2 ORDER BY x."definition_key"`,
      [tenantId, businessKey],
    );
    return { latest: latest[0], byStatus, definitionKeys: keys.map((k) => k.definition_key) };
  }

  /** The instance's definition (for the node modes the summary decides votes by). */
  async versionDefinition(versionId: string): Promise<Record<string, unknown> | undefined> {
    const rows: Array<{ definition: Record<string, unknown> }> = await this.dataSource.query(
      `SELECT "definition" FROM "workflow"."definition_version" WHERE "id" = $1`,
      [versionId],
    );
    return rows[0]?.definition;
  }

  /** The hot instance under its row lock (the lock every runtime write takes first), or undefined. */
  async lockHot(manager: EntityManager, tenantId: string, id: string): Promise<InstanceRow | undefined> {
    const rows: InstanceRow[] = await manager.query(`SELECT ${INSTANCE} FROM "workflow"."instance" WHERE "tenant_id" = $1 AND "id" = $2 FOR UPDATE`, [
      tenantId,
      id,
    ]);
    return rows[0];
  }

  /**
   * Moves a (locked, terminal) instance with its tasks and events into the archive tables, inside the
   * caller's transaction: copies first, then deletes (events, tasks, instance: the foreign keys' order).
   */
  async moveToArchive(manager: EntityManager, tenantId: string, id: string, archivedBy: string): Promise<void> {
    await manager.query(
      `INSERT INTO "workflow"."instance_archive" (${INSTANCE}, "archived_by")
       SELECT ${INSTANCE}, $3 FROM "workflow"."instance" WHERE "tenant_id" = $1 AND "id" = $2`,
      [tenantId, id, archivedBy],
    );
    await manager.query(`INSERT INTO "workflow"."task_archive" (${TASK}) SELECT ${TASK} FROM "workflow"."task" WHERE "tenant_id" = $1 AND "instance_id" = $2`, [
      tenantId,
      id,
    ]);
    await manager.query(
      `INSERT INTO "workflow"."instance_event_archive" (${EVENT})
       SELECT ${EVENT} FROM "workflow"."instance_event" WHERE "tenant_id" = $1 AND "instance_id" = $2`,
      [tenantId, id],
    );
    await withHistoryRemoval(manager, 'archive', () =>
      manager.query(`DELETE FROM "workflow"."instance_event" WHERE "tenant_id" = $1 AND "instance_id" = $2`, [tenantId, id]),
    );
    await manager.query(`DELETE FROM "workflow"."task" WHERE "tenant_id" = $1 AND "instance_id" = $2`, [tenantId, id]);
    await manager.query(`DELETE FROM "workflow"."instance" WHERE "tenant_id" = $1 AND "id" = $2`, [tenantId, id]);
  }

  /** Tenants holding archived instances: the ones the retention job visits. */
  async tenantsWithArchive(): Promise<string[]> {
    const rows: Array<{ tenant_id: string }> = await this.dataSource.query(
      `SELECT DISTINCT "tenant_id" FROM "workflow"."instance_archive" ORDER BY "tenant_id"`,
    );
    return rows.map((r) => r.tenant_id);
  }

  /**
   * Deletes up to `limit` archived instances of the tenant that ended before `cutoff`, with their
   * tasks, events and administrative audit rows, in one short transaction; resolves how many
   * instances and rows went.
   */
  async purgeArchived(tenantId: string, cutoff: Date, limit: number): Promise<{ instances: number; rows: number }> {
    return this.dataSource.transaction(async (manager) => {
      const batch: Array<{ id: string }> = await manager.query(
        `SELECT "id" FROM "workflow"."instance_archive" WHERE "tenant_id" = $1 AND "ended_at" < $2 ORDER BY "ended_at", "id" LIMIT $3 FOR UPDATE`,
        [tenantId, cutoff, limit],
      );
      if (batch.length === 0) return { instances: 0, rows: 0 };
      const ids = batch.map((b) => b.id);
      let rows = 0;
      await withHistoryRemoval(manager, 'purge', async () => {
        for (const table of ['instance_event_archive', 'task_archive', 'admin_audit', 'instance_archive', 'legacy_import']) {
          const column = table === 'instance_archive' ? 'id' : 'instance_id';
          const deleted: [unknown[], number] = await manager.query(
            `DELETE FROM "workflow"."${table}" WHERE "tenant_id" = $1 AND "${column}" = ANY ($2::uuid[])`,
            [tenantId, ids],
          );
          rows += deleted[1];
        }
      });
      return { instances: ids.length, rows };
    });
  }

  async retentionDays(tenantId: string): Promise<number | null> {
    const rows: Array<{ history_retention_days: number | null }> = await this.dataSource.query(
      `SELECT "history_retention_days" FROM "workflow"."tenant_settings" WHERE "tenant_id" = $1`,
      [tenantId],
    );
    return rows[0]?.history_retention_days ?? null;
  }

  async setRetentionDays(tenantId: string, days: number | null, by: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "workflow"."tenant_settings" ("tenant_id", "history_retention_days", "updated_by") VALUES ($1, $2, $3)
       ON CONFLICT ("tenant_id") DO UPDATE SET "history_retention_days" = EXCLUDED."history_retention_days", "updated_by" = EXCLUDED."updated_by", "updated_at" = now()`,
      [tenantId, days, by],
    );
  }
}
