import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { DataScope } from '@lp/contracts';
import { applyDataScope } from '@lp/authz-guard';
import { DefinitionVersionEntity, WorkflowInstanceEntity, WorkflowTaskEntity } from '../store';
import type { InstanceStatus, TaskStatus } from '../store';
import type { WalkPosition } from './runtime-walk';

export interface InstanceRow {
  id: string;
  tenant_id: string;
  definition_key: string;
  definition_version_id: string;
  business_key: string;
  initiator: string;
  status: InstanceStatus;
  variables: Record<string, unknown>;
  position: WalkPosition;
  priority: number;
  version: number;
  created_at: Date;
  updated_at: Date;
  ended_at: Date | null;
}

export interface TaskRow {
  id: string;
  tenant_id: string;
  instance_id: string;
  node_key: string;
  visit: number;
  seq: number;
  assignee: string;
  owner: string | null;
  status: TaskStatus;
  comment: string | null;
  read_at: Date | null;
  decided_at: Date | null;
  decided_by: string | null;
  created_at: Date;
}

/**
 * A task with its instance's identifying columns and the names its version gives (the definition's,
 * the node's), as the task lists show it. The names are null once a terminal instance's version is
 * deleted, or for a node without a name.
 */
export interface TaskListRow extends TaskRow {
  definition_key: string;
  business_key: string;
  instance_status: InstanceStatus;
  initiator: string;
  definition_name: string | null;
  definition_version: number | null;
  node_name: string | null;
}

const INSTANCE = `"id", "tenant_id", "definition_key", "definition_version_id", "business_key", "initiator", "status", "variables", "position", "priority", "version", "created_at", "updated_at", "ended_at"`;
const TASK = `t."id", t."tenant_id", t."instance_id", t."node_key", t."visit", t."seq", t."assignee", t."owner", t."status", t."comment", t."read_at", t."decided_at", t."decided_by", t."created_at"`;
/** The node's name from the version's JSON (nodes nest in gateway branches, so at any depth). */
const NODE_NAME = `jsonb_path_query_first(v."definition", 'strict $.**.nodes[*] ? (@.key == $k).name', jsonb_build_object('k', t."node_key")) #>> '{}'`;
const TASK_LIST = `${TASK}, i."definition_key", i."business_key", i."status" AS "instance_status", i."initiator",
  v."definition"->>'name' AS "definition_name", v."version" AS "definition_version", ${NODE_NAME} AS "node_name"`;
/** Joined after the instance (`i`) wherever `TASK_LIST` is selected. */
const VERSION_JOIN = `LEFT JOIN "workflow"."definition_version" v ON v."id" = i."definition_version_id" AND v."tenant_id" = i."tenant_id"`;

/**
 * Every query of the runtime store. Every lookup by a client-supplied id or key names the tenant, so
 * another tenant's ids are "not found"; the queries by instance id alone (votes, cancellations) run
 * only after that instance was found, and locked, within the caller's tenant. Methods taking a
 * manager run inside the caller's transaction, which holds the instance row's lock (`lockInstance`)
 * before it changes anything of the instance.
 */
@Injectable()
export class RuntimeRepository {
  constructor(private readonly dataSource: DataSource) {}

  private q(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /**
   * Inserts the instance unless (tenant, definition key, business key) exists: undefined then. A
   * concurrent start with the same business key waits on the unique index and gets undefined too.
   */
  async insertInstance(
    manager: EntityManager,
    row: {
      tenantId: string;
      definitionKey: string;
      versionId: string;
      businessKey: string;
      initiator: string;
      variables: Record<string, unknown>;
      priority: number;
    },
  ): Promise<InstanceRow | undefined> {
    const rows: InstanceRow[] = await manager.query(
      `INSERT INTO "workflow"."instance" ("id", "tenant_id", "definition_key", "definition_version_id", "business_key", "initiator", "status", "variables", "priority")
       VALUES ($1, $2, $3, $4, $5, $6, 'Running', $7::jsonb, $8)
       ON CONFLICT ("tenant_id", "definition_key", "business_key") DO NOTHING
       RETURNING ${INSTANCE}`,
      [randomUUID(), row.tenantId, row.definitionKey, row.versionId, row.businessKey, row.initiator, JSON.stringify(row.variables), row.priority],
    );
    return rows[0];
  }

  async instanceByBusinessKey(tenantId: string, definitionKey: string, businessKey: string, manager?: EntityManager): Promise<InstanceRow | undefined> {
    const rows: InstanceRow[] = await this.q(manager).query(
      `SELECT ${INSTANCE} FROM "workflow"."instance" WHERE "tenant_id" = $1 AND "definition_key" = $2 AND "business_key" = $3`,
      [tenantId, definitionKey, businessKey],
    );
    return rows[0];
  }

  async instance(tenantId: string, id: string, manager?: EntityManager): Promise<InstanceRow | undefined> {
    const rows: InstanceRow[] = await this.q(manager).query(`SELECT ${INSTANCE} FROM "workflow"."instance" WHERE "tenant_id" = $1 AND "id" = $2`, [
      tenantId,
      id,
    ]);
    return rows[0];
  }

  /** The instance row, locked until the transaction ends: every runtime write of the instance takes it first. */
  async lockInstance(manager: EntityManager, tenantId: string, id: string): Promise<InstanceRow | undefined> {
    const rows: InstanceRow[] = await manager.query(`SELECT ${INSTANCE} FROM "workflow"."instance" WHERE "tenant_id" = $1 AND "id" = $2 FOR UPDATE`, [
      tenantId,
      id,
    ]);
    return rows[0];
  }

  /** Locks the instance a task belongs to, found through the task in the same statement (the instance is always locked first). */
  async lockInstanceOfTask(manager: EntityManager, tenantId: string, taskId: string): Promise<InstanceRow | undefined> {
    const rows: InstanceRow[] = await manager.query(
      `SELECT ${INSTANCE} FROM "workflow"."instance"
        WHERE "tenant_id" = $1 AND "id" = (SELECT t."instance_id" FROM "workflow"."task" t WHERE t."tenant_id" = $1 AND t."id" = $2)
        FOR UPDATE`,
      [tenantId, taskId],
    );
    return rows[0];
  }

  /** Writes the walk's result; `version` must be the one read under the lock (it always is: a backstop). */
  async saveInstance(
    manager: EntityManager,
    row: Pick<InstanceRow, 'id' | 'tenant_id' | 'status' | 'variables' | 'position' | 'version'>,
  ): Promise<InstanceRow> {
    const ended = row.status !== 'Running' && row.status !== 'Suspended';
    const rows: [InstanceRow[], number] = await manager.query(
      `UPDATE "workflow"."instance"
          SET "status" = $3, "variables" = $4::jsonb, "position" = $5::jsonb, "version" = "version" + 1, "updated_at" = now(),
              "ended_at" = CASE WHEN $6::boolean THEN now() ELSE NULL END
        WHERE "tenant_id" = $1 AND "id" = $2 AND "version" = $7
        RETURNING ${INSTANCE}`,
      [row.tenant_id, row.id, row.status, JSON.stringify(row.variables), JSON.stringify(row.position), ended, row.version],
    );
    const saved = rows[0][0];
    if (!saved) throw new Error(`instance ${row.id}: version ${row.version} changed under its lock`);
    return saved;
  }

  async setPriority(manager: EntityManager, tenantId: string, id: string, priority: number): Promise<InstanceRow> {
    const rows: [InstanceRow[], number] = await manager.query(
      `UPDATE "workflow"."instance" SET "priority" = $3, "version" = "version" + 1, "updated_at" = now() WHERE "tenant_id" = $1 AND "id" = $2 RETURNING ${INSTANCE}`,
      [tenantId, id, priority],
    );
    const saved = rows[0][0];
    if (!saved) throw new Error(`instance ${id} vanished under its lock`);
    return saved;
  }

  /** The applicant changes (transfer-applicant); the caller's `saveInstance` then bumps the version once for the whole change. */
  async setInitiator(manager: EntityManager, tenantId: string, id: string, initiator: string): Promise<void> {
    await manager.query(`UPDATE "workflow"."instance" SET "initiator" = $3 WHERE "tenant_id" = $1 AND "id" = $2`, [tenantId, id, initiator]);
  }

  /** A delegate's open task returns to a new owner (the seat's holder changed meanwhile). */
  async setOwner(manager: EntityManager, tenantId: string, taskId: string, owner: string): Promise<void> {
    await manager.query(`UPDATE "workflow"."task" SET "owner" = $3 WHERE "tenant_id" = $1 AND "id" = $2 AND "status" = 'Pending'`, [tenantId, taskId, owner]);
  }

  async pendingTasks(manager: EntityManager, instanceId: string): Promise<TaskRow[]> {
    return manager.query(`SELECT ${TASK} FROM "workflow"."task" t WHERE t."instance_id" = $1 AND t."status" = 'Pending' ORDER BY t."created_at", t."seq"`, [
      instanceId,
    ]);
  }

  async insertTask(
    manager: EntityManager,
    task: { tenantId: string; instanceId: string; nodeKey: string; visit: number; seq: number; assignee: string; owner?: string | null },
  ): Promise<TaskRow> {
    const rows: TaskRow[] = await manager.query(
      `INSERT INTO "workflow"."task" AS t ("id", "tenant_id", "instance_id", "node_key", "visit", "seq", "assignee", "owner", "status")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'Pending') RETURNING ${TASK}`,
      [randomUUID(), task.tenantId, task.instanceId, task.nodeKey, task.visit, task.seq, task.assignee, task.owner ?? null],
    );
    const created = rows[0];
    if (!created) throw new Error('no task row returned');
    return created;
  }

  /** The task row within the tenant, locked when read inside the write's transaction. */
  async task(tenantId: string, id: string, manager?: EntityManager, forUpdate = false): Promise<TaskRow | undefined> {
    const rows: TaskRow[] = await this.q(manager).query(
      `SELECT ${TASK} FROM "workflow"."task" t WHERE t."tenant_id" = $1 AND t."id" = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [tenantId, id],
    );
    return rows[0];
  }

  async taskWithInstance(tenantId: string, id: string): Promise<TaskListRow | undefined> {
    const rows: TaskListRow[] = await this.q().query(
      `SELECT ${TASK_LIST} FROM "workflow"."task" t JOIN "workflow"."instance" i ON i."id" = t."instance_id" AND i."tenant_id" = t."tenant_id"
        ${VERSION_JOIN} WHERE t."tenant_id" = $1 AND t."id" = $2`,
      [tenantId, id],
    );
    return rows[0];
  }

  /**
   * Closes a Pending task: a vote (Approved, Rejected) or a hand-over (Transferred, Delegated). The
   * guarded update is what makes racing votes safe: 0 rows (undefined) when the task was no longer Pending.
   */
  async closeTask(
    manager: EntityManager,
    tenantId: string,
    id: string,
    status: 'Approved' | 'Rejected' | 'Transferred' | 'Delegated',
    by: string,
    comment: string | null,
  ): Promise<TaskRow | undefined> {
    const rows: [TaskRow[], number] = await manager.query(
      `UPDATE "workflow"."task" t SET "status" = $3, "decided_by" = $4, "decided_at" = clock_timestamp(), "comment" = $5
        WHERE t."tenant_id" = $1 AND t."id" = $2 AND t."status" = 'Pending' RETURNING ${TASK}`,
      [tenantId, id, status, by, comment],
    );
    return rows[0][0];
  }

  /** The votes cast at one visit of a node, in the order they were cast (a delegate's decision has an `owner` and is advice, not a vote). */
  async votes(manager: EntityManager, instanceId: string, nodeKey: string, visit: number): Promise<TaskRow[]> {
    return manager.query(
      `SELECT ${TASK} FROM "workflow"."task" t WHERE t."instance_id" = $1 AND t."node_key" = $2 AND t."visit" = $3 AND t."status" IN ('Approved', 'Rejected')
          AND t."owner" IS NULL
        ORDER BY t."decided_at", t."seq"`,
      [instanceId, nodeKey, visit],
    );
  }

  /** Cancels the pending tasks of the nodes given (every node when `nodeKeys` is undefined). */
  async cancelPending(manager: EntityManager, instanceId: string, nodeKeys?: string[]): Promise<number> {
    const rows: [unknown[], number] = await manager.query(
      `UPDATE "workflow"."task" SET "status" = 'Cancelled', "decided_at" = clock_timestamp()
        WHERE "instance_id" = $1 AND "status" = 'Pending' AND ($2::varchar[] IS NULL OR "node_key" = ANY($2::varchar[])) RETURNING "id"`,
      [instanceId, nodeKeys ?? null],
    );
    return rows[1];
  }

  async tasksOfInstance(tenantId: string, instanceId: string): Promise<TaskRow[]> {
    return this.q().query(`SELECT ${TASK} FROM "workflow"."task" t WHERE t."tenant_id" = $1 AND t."instance_id" = $2 ORDER BY t."created_at", t."seq"`, [
      tenantId,
      instanceId,
    ]);
  }

  private static readonly DONE = `t."tenant_id" = $1 AND t."decided_by" = $2 AND t."status" IN ('Approved', 'Rejected')`;

  /**
   * The caller's open tasks within the DataScope of their `workflow.task.view` permit: one query for
   * the page and the count, so the badge always matches the list. The list only ever holds the
   * caller's own tasks (assignee = the acting subject), so an `own` scope narrows nothing further;
   * `instances` keeps the listed task ids; `office` matches nothing, since instances carry no office
   * (spec §1.5: office comes from the server context, and tokens carry none yet) and failing closed
   * beats guessing; `none` matches nothing.
   */
  private todoQuery(scope: DataScope, subject: string): SelectQueryBuilder<WorkflowTaskEntity> {
    const qb = this.q().createQueryBuilder(WorkflowTaskEntity, 't').where(`t."assignee" = :todoSubject AND t."status" = 'Pending'`, { todoSubject: subject });
    const narrowing: DataScope = scope.kind === 'own' ? { kind: 'tenant', tenantId: scope.tenantId } : scope;
    return applyDataScope(qb, narrowing, { tenant: 't."tenant_id"', id: 't."id"', resourceType: 'task' });
  }

  async todoPage(scope: DataScope, subject: string, window: { skip: number; take: number }): Promise<[TaskListRow[], number]> {
    const items: TaskListRow[] = await this.todoQuery(scope, subject)
      .innerJoin(WorkflowInstanceEntity, 'i', 'i."id" = t."instance_id" AND i."tenant_id" = t."tenant_id"')
      .leftJoin(DefinitionVersionEntity, 'v', 'v."id" = i."definition_version_id" AND v."tenant_id" = i."tenant_id"')
      .select(TASK_LIST)
      .orderBy('t."created_at"', 'DESC')
      .addOrderBy('t."id"')
      .limit(window.take)
      .offset(window.skip)
      .getRawMany();
    return [items, await this.todoCount(scope, subject)];
  }

  async todoCount(scope: DataScope, subject: string): Promise<number> {
    const row: { n: number } | undefined = await this.todoQuery(scope, subject).select('count(*)::int', 'n').getRawOne();
    return row?.n ?? 0;
  }

  async donePage(tenantId: string, subject: string, window: { skip: number; take: number }): Promise<[TaskListRow[], number]> {
    return this.listPage(RuntimeRepository.DONE, `t."decided_at" DESC, t."id"`, tenantId, subject, window);
  }

  private async listPage(
    where: string,
    order: string,
    tenantId: string,
    subject: string,
    window: { skip: number; take: number },
  ): Promise<[TaskListRow[], number]> {
    const items: TaskListRow[] = await this.q().query(
      `SELECT ${TASK_LIST} FROM "workflow"."task" t JOIN "workflow"."instance" i ON i."id" = t."instance_id" AND i."tenant_id" = t."tenant_id"
        ${VERSION_JOIN} WHERE ${where} ORDER BY ${order} LIMIT $3 OFFSET $4`,
      [tenantId, subject, window.take, window.skip],
    );
    const total: Array<{ n: number }> = await this.q().query(`SELECT count(*)::int AS n FROM "workflow"."task" t WHERE ${where}`, [tenantId, subject]);
    return [items, total[0]?.n ?? 0];
  }

  async markRead(tenantId: string, id: string): Promise<void> {
    await this.q().query(`UPDATE "workflow"."task" SET "read_at" = coalesce("read_at", now()) WHERE "tenant_id" = $1 AND "id" = $2`, [tenantId, id]);
  }
}
