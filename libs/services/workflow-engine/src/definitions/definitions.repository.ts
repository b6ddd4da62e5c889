import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { BindingStatus, DeploymentAction, VersionSource } from '../store';

export interface VersionRow {
  id: string;
  tenant_id: string;
  key: string;
  version: number;
  definition?: Record<string, unknown>;
  checksum: string;
  source: VersionSource;
  created_by: string;
  created_at: Date;
}

export interface DraftRow {
  key: string;
  definition: Record<string, unknown>;
  revision: number;
  updated_by: string;
  updated_at: Date;
}

export interface BindingRow {
  key: string;
  active_version_id: string;
  previous_version_id: string | null;
  status: BindingStatus;
  updated_by: string;
  updated_at: Date;
}

export interface DeploymentRow {
  id: string;
  action: DeploymentAction;
  from_version_id: string | null;
  from_version: number | null;
  to_version_id: string;
  to_version: number;
  actor: string;
  at: Date;
}

const VERSION_SUMMARY = `v."id", v."tenant_id", v."key", v."version", v."checksum", v."source", v."created_by", v."created_at"`;
const DRAFT = `"key", "definition", "revision", "updated_by", "updated_at"`;
const BINDING = `"key", "active_version_id", "previous_version_id", "status", "updated_by", "updated_at"`;

/**
 * Every query of the definition store. Each one names the tenant: ids and keys are only ever
 * looked up within the caller's tenant, so another tenant's rows are "not found", never readable.
 * Methods taking a manager run inside the caller's transaction (ARCHITECTURE.md: on PGlite a
 * query on another connection would wait for that very transaction).
 */
@Injectable()
export class DefinitionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private q(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async definitionExists(tenantId: string, key: string): Promise<boolean> {
    const rows: unknown[] = await this.q().query(`SELECT 1 FROM "workflow"."definition" WHERE "tenant_id" = $1 AND "key" = $2`, [tenantId, key]);
    return rows.length > 0;
  }

  /**
   * Creates the key's anchor row if needed and locks it until the transaction ends: the one lock
   * every version and binding change of the key takes first, so they run one after another.
   */
  async lockDefinition(manager: EntityManager, tenantId: string, key: string, actor: string): Promise<void> {
    await manager.query(
      `INSERT INTO "workflow"."definition" ("tenant_id", "key", "created_by") VALUES ($1, $2, $3) ON CONFLICT ("tenant_id", "key") DO NOTHING`,
      [tenantId, key, actor],
    );
    await manager.query(`SELECT 1 FROM "workflow"."definition" WHERE "tenant_id" = $1 AND "key" = $2 FOR UPDATE`, [tenantId, key]);
  }

  /** Locks an existing key's anchor row; false when the key has never been published in this tenant. */
  async lockExistingDefinition(manager: EntityManager, tenantId: string, key: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM "workflow"."definition" WHERE "tenant_id" = $1 AND "key" = $2 FOR UPDATE`, [tenantId, key]);
    return rows.length > 0;
  }

  /** The binding, locked with `FOR UPDATE` when read inside a transaction that will change it. */
  async binding(tenantId: string, key: string, manager?: EntityManager, forUpdate = false): Promise<BindingRow | undefined> {
    const rows: BindingRow[] = await this.q(manager).query(
      `SELECT ${BINDING} FROM "workflow"."definition_binding" WHERE "tenant_id" = $1 AND "key" = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [tenantId, key],
    );
    return rows[0];
  }

  async insertVersion(
    manager: EntityManager,
    row: { tenantId: string; key: string; definition: Record<string, unknown>; checksum: string; source: VersionSource; actor: string },
  ): Promise<VersionRow> {
    // Under the definition lock no other writer draws a number for this key; the unique constraint backs that up.
    const [created]: VersionRow[] = await manager.query(
      `INSERT INTO "workflow"."definition_version" ("id", "tenant_id", "key", "version", "definition", "checksum", "source", "created_by")
       SELECT $1::uuid, $2::varchar, $3::varchar, coalesce(max("version"), 0) + 1, $4::jsonb, $5::char(64), $6::varchar, $7::varchar
         FROM "workflow"."definition_version" WHERE "tenant_id" = $2::varchar AND "key" = $3::varchar
       RETURNING "id", "tenant_id", "key", "version", "checksum", "source", "created_by", "created_at"`,
      [randomUUID(), row.tenantId, row.key, JSON.stringify(row.definition), row.checksum, row.source, row.actor],
    );
    if (!created) throw new Error(`no version row returned for ${row.key}`);
    return created;
  }

  async upsertBinding(
    manager: EntityManager,
    tenantId: string,
    key: string,
    binding: { activeVersionId: string; previousVersionId: string | null; status: BindingStatus; actor: string },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO "workflow"."definition_binding" ("tenant_id", "key", "active_version_id", "previous_version_id", "status", "updated_by")
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ("tenant_id", "key") DO UPDATE
         SET "active_version_id" = EXCLUDED."active_version_id", "previous_version_id" = EXCLUDED."previous_version_id",
             "status" = EXCLUDED."status", "updated_by" = EXCLUDED."updated_by", "updated_at" = now()`,
      [tenantId, key, binding.activeVersionId, binding.previousVersionId, binding.status, binding.actor],
    );
  }

  async recordDeployment(
    manager: EntityManager,
    tenantId: string,
    key: string,
    entry: { action: DeploymentAction; fromVersionId: string | null; toVersionId: string; actor: string },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO "workflow"."definition_deployment" ("id", "tenant_id", "key", "action", "from_version_id", "to_version_id", "actor")
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [randomUUID(), tenantId, key, entry.action, entry.fromVersionId, entry.toVersionId, entry.actor],
    );
  }

  /** One version with its definition JSON, by id within the tenant. */
  async versionById(tenantId: string, id: string, manager?: EntityManager): Promise<VersionRow | undefined> {
    const rows: VersionRow[] = await this.q(manager).query(
      `SELECT ${VERSION_SUMMARY}, v."definition" FROM "workflow"."definition_version" v WHERE v."tenant_id" = $1 AND v."id" = $2`,
      [tenantId, id],
    );
    return rows[0];
  }

  async versionByNumber(tenantId: string, key: string, version: number, manager?: EntityManager): Promise<VersionRow | undefined> {
    const rows: VersionRow[] = await this.q(manager).query(
      `SELECT ${VERSION_SUMMARY} FROM "workflow"."definition_version" v WHERE v."tenant_id" = $1 AND v."key" = $2 AND v."version" = $3`,
      [tenantId, key, version],
    );
    return rows[0];
  }

  /** Summaries (no JSON) of the given ids within the tenant, by id. */
  async versionsByIds(tenantId: string, ids: string[], manager?: EntityManager): Promise<Map<string, VersionRow>> {
    if (ids.length === 0) return new Map();
    const rows: VersionRow[] = await this.q(manager).query(
      `SELECT ${VERSION_SUMMARY} FROM "workflow"."definition_version" v WHERE v."tenant_id" = $1 AND v."id" = ANY($2::uuid[])`,
      [tenantId, ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Newest first: the version number is the order of publication. */
  async versionPage(tenantId: string, key: string, window: { skip: number; take: number }): Promise<[VersionRow[], number]> {
    const rows: VersionRow[] = await this.q().query(
      `SELECT ${VERSION_SUMMARY} FROM "workflow"."definition_version" v WHERE v."tenant_id" = $1 AND v."key" = $2
        ORDER BY v."version" DESC LIMIT $3 OFFSET $4`,
      [tenantId, key, window.take, window.skip],
    );
    const [count]: Array<{ n: number }> = await this.q().query(
      `SELECT count(*)::int AS n FROM "workflow"."definition_version" WHERE "tenant_id" = $1 AND "key" = $2`,
      [tenantId, key],
    );
    return [rows, count?.n ?? 0];
  }

  /** Newest first; `at` is the clock time of each insert, and the id breaks ties between equal clocks. */
  async deploymentPage(tenantId: string, key: string, window: { skip: number; take: number }): Promise<[DeploymentRow[], number]> {
    const rows: DeploymentRow[] = await this.q().query(
      `SELECT d."id", d."action", d."from_version_id", f."version" AS "from_version", d."to_version_id", t."version" AS "to_version", d."actor", d."at"
         FROM "workflow"."definition_deployment" d
         JOIN "workflow"."definition_version" t ON t."tenant_id" = d."tenant_id" AND t."id" = d."to_version_id"
         LEFT JOIN "workflow"."definition_version" f ON f."tenant_id" = d."tenant_id" AND f."id" = d."from_version_id"
        WHERE d."tenant_id" = $1 AND d."key" = $2
        ORDER BY d."at" DESC, d."id" DESC LIMIT $3 OFFSET $4`,
      [tenantId, key, window.take, window.skip],
    );
    const [count]: Array<{ n: number }> = await this.q().query(
      `SELECT count(*)::int AS n FROM "workflow"."definition_deployment" WHERE "tenant_id" = $1 AND "key" = $2`,
      [tenantId, key],
    );
    return [rows, count?.n ?? 0];
  }

  async draft(tenantId: string, key: string, manager?: EntityManager, forUpdate = false): Promise<DraftRow | undefined> {
    const rows: DraftRow[] = await this.q(manager).query(
      `SELECT ${DRAFT} FROM "workflow"."definition_draft" WHERE "tenant_id" = $1 AND "key" = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [tenantId, key],
    );
    return rows[0];
  }

  /** Creates the draft at revision 1; undefined when one exists already (the caller's revision 0 is stale). */
  async createDraft(tenantId: string, key: string, definition: Record<string, unknown>, actor: string): Promise<DraftRow | undefined> {
    const rows: DraftRow[] = await this.q().query(
      `INSERT INTO "workflow"."definition_draft" ("tenant_id", "key", "definition", "revision", "updated_by")
       VALUES ($1, $2, $3::jsonb, 1, $4) ON CONFLICT ("tenant_id", "key") DO NOTHING RETURNING ${DRAFT}`,
      [tenantId, key, JSON.stringify(definition), actor],
    );
    return rows[0];
  }

  /** Compare-and-set in one statement: saved only when the stored revision is still `revision`. */
  async updateDraft(tenantId: string, key: string, revision: number, definition: Record<string, unknown>, actor: string): Promise<DraftRow | undefined> {
    // TypeORM answers an UPDATE or DELETE with [rows, rowCount].
    const [rows]: [DraftRow[], number] = await this.q().query(
      `UPDATE "workflow"."definition_draft" SET "definition" = $4::jsonb, "revision" = "revision" + 1, "updated_by" = $5, "updated_at" = now()
        WHERE "tenant_id" = $1 AND "key" = $2 AND "revision" = $3 RETURNING ${DRAFT}`,
      [tenantId, key, revision, JSON.stringify(definition), actor],
    );
    return rows[0];
  }

  async currentDraftRevision(tenantId: string, key: string): Promise<number> {
    const rows: Array<{ revision: number }> = await this.q().query(
      `SELECT "revision" FROM "workflow"."definition_draft" WHERE "tenant_id" = $1 AND "key" = $2`,
      [tenantId, key],
    );
    return rows[0]?.revision ?? 0;
  }

  async deleteDraft(tenantId: string, key: string, manager?: EntityManager): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.q(manager).query(
      `DELETE FROM "workflow"."definition_draft" WHERE "tenant_id" = $1 AND "key" = $2 RETURNING "key"`,
      [tenantId, key],
    );
    return rows.length > 0;
  }
}
