import { DataSource } from 'typeorm';
import { OperationsTestPlatform } from '../support/operations-platform';
import { signedRequests } from '../support/policy-platform';

import { DEFS, RUNTIME, TASKS } from '../support/workflow-routes';

export { DEFS, RUNTIME, TASKS };

/**
 * Named permission sets. A profile is also a tenant role of that name, so a definition's
 * `{ "kind": "role", "role": "approver" }` resolves to every subject given the `approver` profile.
 */
export const PROFILES = {
  starter: ['workflow.instance.create', 'workflow.instance.view', 'workflow.instance.update', 'workflow.task.view'],
  approver: ['workflow.task.view', 'workflow.task.approve', 'workflow.task.reject', 'workflow.instance.view'],
  admin: ['workflow.instance.manage', 'workflow.instance.view', 'workflow.task.view'],
  designer: ['workflow.definition.view', 'workflow.definition.update', 'workflow.definition.manage'],
  /** Holds no workflow permission at all: for denials. */
  outsider: ['cases.case.view'],
} as const satisfies Record<string, readonly string[]>;
export type ProfileName = keyof typeof PROFILES;

/** Profile names and permission codes (codes carry a dot, profile names never do). */
export type Grant = ProfileName | string;

/** The subject the harness publishes definitions and reads progress as; no fixture names it. */
const OBSERVER = 'scenario-observer';

/** What the runtime answers about one task (the fields the tests read). */
export interface RuntimeTask {
  id: string;
  nodeKey: string;
  visit: number;
  seq?: number;
  assignee: string;
  owner: string | null;
  status: string;
  createdAt: string;
}

export interface Progress {
  instance: { id: string; status: string; version: number; priority: number; variables: Record<string, unknown>; initiator: string };
  returnedToInitiator: boolean;
  nodes: Array<{ key: string; kind: string; state: string; tasks: RuntimeTask[] }>;
}

/**
 * One tenant of the workflow runtime under test: its subjects with their grants, its published
 * definitions, its instances. Each scenario and each race uses a tenant of its own, so todo counts,
 * role members and business keys never leak from one into another.
 */
export class RuntimeTenant {
  private constructor(
    private readonly platform: OperationsTestPlatform,
    readonly tenantId: string,
  ) {}

  /**
   * Grants every subject its profiles or codes (one role per profile, one `own-<subject>` role for
   * loose codes), plus the harness's observer, in one call. `roles` are membership-only roles (no
   * permission), for role assignees.
   */
  static async create(
    platform: OperationsTestPlatform,
    tenantId: string,
    subjects: Record<string, Grant[]>,
    roles: Record<string, string[]> = {},
  ): Promise<RuntimeTenant> {
    const bindings: Array<{ subject: string; role: string; codes: string[] }> = [
      { subject: OBSERVER, role: OBSERVER, codes: [...PROFILES.designer, 'workflow.instance.view'] },
    ];
    for (const [subject, grants] of Object.entries(subjects)) {
      const codes = grants.filter((g) => g.includes('.'));
      for (const profile of grants.filter((g) => !g.includes('.'))) {
        if (!(profile in PROFILES)) throw new Error(`unknown profile "${profile}" for ${subject} (profiles: ${Object.keys(PROFILES).join(', ')})`);
        bindings.push({ subject, role: profile, codes: [...PROFILES[profile as ProfileName]] });
      }
      if (codes.length > 0) bindings.push({ subject, role: `own-${subject}`, codes });
    }
    for (const [role, members] of Object.entries(roles)) for (const subject of members) bindings.push({ subject, role, codes: [] });
    await platform.grantRoles(tenantId, bindings);
    return new RuntimeTenant(platform, tenantId);
  }

  get sql(): DataSource {
    return this.platform.service('workflow-engine').app.get(DataSource);
  }

  /** supertest on workflow-engine as `subject` of this tenant. */
  as(subject: string) {
    return signedRequests(this.platform.service('workflow-engine').http, this.platform.token({ sub: subject, tenantId: this.tenantId }));
  }

  /** Publishes `definition` under `key` through the real route (validated, versioned, active). */
  async publish(key: string, definition: unknown): Promise<void> {
    const res = await this.as(OBSERVER).post(`${DEFS}/${key}/deployments`).send({ definition });
    if (res.status !== 201) throw new Error(`publishing ${key} in ${this.tenantId}: ${res.status} ${JSON.stringify(res.body)}`);
  }

  async progress(instanceId: string): Promise<Progress> {
    const res = await this.as(OBSERVER).get(`${RUNTIME}/instances/${instanceId}/progress`);
    if (res.status !== 200) throw new Error(`progress of ${instanceId}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Progress;
  }

  /** Every task of the instance, in creation order, with its seat (from the store: progress does not show seats). */
  async tasks(instanceId: string): Promise<RuntimeTask[]> {
    const rows: Array<Record<string, unknown>> = await this.sql.query(
      `SELECT id, node_key, visit, seq, assignee, owner, status, created_at FROM workflow.task WHERE instance_id = $1 ORDER BY created_at, id`,
      [instanceId],
    );
    return rows.map((r) => ({
      id: r['id'] as string,
      nodeKey: r['node_key'] as string,
      visit: r['visit'] as number,
      seq: r['seq'] as number,
      assignee: r['assignee'] as string,
      owner: r['owner'] as string | null,
      status: r['status'] as string,
      createdAt: (r['created_at'] as Date).toISOString(),
    }));
  }

  /** The Pending task of `assignee` at node `node` (the latest visit); throws naming what was open instead. */
  async pendingTask(instanceId: string, node: string, assignee: string): Promise<RuntimeTask> {
    const tasks = await this.tasks(instanceId);
    const task = tasks.filter((t) => t.status === 'Pending' && t.nodeKey === node && t.assignee === assignee).pop();
    if (!task) throw new Error(`no Pending task of ${assignee} at ${node}; open: ${describeOpen(tasks)}`);
    return task;
  }

  /** Outbox events of `type` about the instance. */
  async events(instanceId: string, type: string): Promise<number> {
    const [row] = await this.sql.query(
      `SELECT count(*)::int AS n FROM workflow.outbox_message WHERE event_type = $1 AND envelope->'payload'->>'instanceId' = $2`,
      [type, instanceId],
    );
    return row.n as number;
  }

  /** Outbox events of every type about the instance, by type. */
  async eventCounts(instanceId: string): Promise<Record<string, number>> {
    const rows: Array<{ type: string; n: number }> = await this.sql.query(
      `SELECT event_type AS type, count(*)::int AS n FROM workflow.outbox_message WHERE envelope->'payload'->>'instanceId' = $1 GROUP BY event_type`,
      [instanceId],
    );
    return Object.fromEntries(rows.map((r) => [r.type, r.n]));
  }

  /** The instance row as stored: status, version and the walk's position. */
  async instanceRow(
    instanceId: string,
  ): Promise<{ status: string; version: number; position: { parked: Record<string, { visit: number; assignees: string[] }> } }> {
    const [row] = await this.sql.query(`SELECT status, version, position FROM workflow.instance WHERE id = $1`, [instanceId]);
    if (!row) throw new Error(`instance ${instanceId} is not stored`);
    return row;
  }
}

export function describeOpen(tasks: RuntimeTask[]): string {
  const open = tasks.filter((t) => t.status === 'Pending').map((t) => `${t.nodeKey}:${t.assignee}${t.owner ? `<${t.owner}` : ''}`);
  return open.length > 0 ? open.join(', ') : '(none)';
}
