import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { INestApplication } from '@nestjs/common';
import { JobRunResult } from '@lp/contracts';
import { ServiceJobs } from '@lp/platform/jobs';
import { platformConfig } from '@lp/platform/runtime';
import { describeWithServers } from '@lp/platform/testing';
import { authzDecisionConfig, decisionAuditRetentionJob, ensureMonthlyPartition, monthStart, partitionName } from '@lp/service/authz-decision';
import { changeLogRetentionJob, policyManagementConfig } from '@lp/service/policy-management';
import { PolicyTestPlatform } from './support/policy-platform';

const DAY = 86_400_000;

/** Runs a job of the app's service as operations would have it run (scheduled tick at `now`). */
function runJob(app: INestApplication, jobName: string, now: Date): Promise<JobRunResult> {
  return app.get(ServiceJobs).run({ jobName, trigger: 'schedule', executionId: randomUUID(), scheduledFor: now, now });
}

/**
 * Retention on PostgreSQL with both services running, each purge a job of its service run through
 * its dispatcher: batches of RETENTION_BATCH_SIZE (10 here), the decision audit purged by partition
 * drops, partitions kept ahead, a default partition that catches what no month holds.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'retention of the audit, the change log and processed events', () => {
  const platform = new PolicyTestPlatform('retention', { env: { RETENTION_BATCH_SIZE: '10' } });
  let audit: DataSource;

  beforeAll(async () => {
    await platform.start();
    audit = platform.decisionInstances[0]!.app.get(DataSource);
  }, 90_000);
  afterAll(() => platform.stop());

  const now = new Date();
  const ago = (days: number) => new Date(now.getTime() - days * DAY);

  async function insertAudit(decidedAt: Date): Promise<string> {
    const id = randomUUID();
    await audit.query(
      `INSERT INTO "authz_audit"."decision_audit" (decision_id, decided_at, tenant_id, caller_kind, subject, action, module, resource_type, outcome, evaluations, cached, latency_ms)
       VALUES ($1, $2, 't1', 'user', 'alice', 'View', 'cases', 'case', 'Permit', '[]', false, 1)`,
      [id, decidedAt],
    );
    return id;
  }
  const partitionOf = async (id: string) =>
    (await audit.query(`SELECT tableoid::regclass::text AS p FROM "authz_audit"."decision_audit" WHERE decision_id = $1`, [id]))[0]?.p as string | undefined;
  const partitionExists = async (name: string) => (await audit.query(`SELECT to_regclass($1) AS t`, [`authz_audit.${name}`]))[0].t !== null;

  it('purges the change log past POLICY_CHANGE_LOG_RETENTION_DAYS in batches, keeping what is newer', async () => {
    const insert = (occurredAt: Date, n: number) =>
      platform.sql.query(
        `INSERT INTO "authz"."policy_change_log" (tenant_id, actor, actor_kind, change, target_type, target_id, occurred_at)
         SELECT 't-retention', 'test', 'user', 'role.created', 'role', g::text, $1 FROM generate_series(1, $2) g`,
        [occurredAt, n],
      );
    await insert(ago(91), 25);
    await insert(ago(89), 3);
    const run = await runJob(platform.policy.app, changeLogRetentionJob.jobName, now);
    expect(run).toEqual({ status: 'succeeded', detail: expect.stringMatching(/^25 rows in 3 batches, /), startedAt: expect.any(String) }); // 10 + 10 + 5
    expect(await platform.count('policy_change_log', `tenant_id = 't-retention'`)).toBe(3);
    // Nothing left past retention: a second run deletes nothing.
    expect((await runJob(platform.policy.app, changeLogRetentionJob.jobName, now)).detail).toMatch(/^0 rows in 1 batches, /);
  });

  it("purges processed events past PROCESSED_EVENT_RETENTION_DAYS in every service, through each service's own job", async () => {
    for (const [ds, schema] of [
      [platform.sql, 'authz'],
      [audit, 'authz_audit'],
    ] as const) {
      await ds.query(
        `INSERT INTO "${schema}"."processed_event" (consumer, event_id, processed_at) SELECT 'retention-test', 'old-' || g, $1 FROM generate_series(1, 12) g`,
        [ago(8)],
      );
      await ds.query(`INSERT INTO "${schema}"."processed_event" (consumer, event_id, processed_at) VALUES ('retention-test', 'new', $1)`, [ago(6)]);
    }
    for (const [app, service] of [
      [platform.policy.app, 'policy-management'],
      [platform.decisionInstances[0]!.app, 'authz-decision'],
    ] as const) {
      const jobName = `${service}.processed-events-retention`;
      expect(app.get(ServiceJobs).catalog.map((j) => j.jobName)).toContain(jobName);
      expect(await runJob(app, jobName, now)).toEqual({
        status: 'succeeded',
        detail: expect.stringMatching(/^12 rows in 2 batches, /),
        startedAt: expect.any(String),
      });
    }
    for (const [ds, schema] of [
      [platform.sql, 'authz'],
      [audit, 'authz_audit'],
    ] as const) {
      const rows = await ds.query(`SELECT event_id FROM "${schema}"."processed_event" WHERE consumer = 'retention-test'`);
      expect(rows).toEqual([{ event_id: 'new' }]);
    }
  });

  it('keeps audit partitions ahead, and a default partition catches a month nobody created, until its partition is made', async () => {
    for (let ahead = 0; ahead <= 3; ahead++) expect(await partitionExists(partitionName(monthStart(now, ahead)))).toBe(true);
    const far = new Date(Date.UTC(2099, 4, 17));
    const id = await insertAudit(far);
    expect(await partitionOf(id)).toBe('authz_audit.decision_audit_pdefault');
    expect(await ensureMonthlyPartition(audit, far)).toBe(true);
    expect(await partitionOf(id)).toBe('authz_audit.decision_audit_p209905');
    expect(await ensureMonthlyPartition(audit, far)).toBe(false);
    await audit.query(`DROP TABLE "authz_audit"."decision_audit_p209905"`);
  });

  it('drops every audit month past DECISION_AUDIT_RETENTION_DAYS as a partition and deletes the rest in batches', async () => {
    const oldMonth = monthStart(ago(200));
    expect(await ensureMonthlyPartition(audit, oldMonth)).toBe(true);
    const inOldMonth = await insertAudit(new Date(oldMonth.getTime() + DAY));
    // Older than retention but in no month partition (before the partitioning): the default keeps them.
    const inDefault = await Promise.all(Array.from({ length: 15 }, () => insertAudit(new Date(oldMonth.getTime() - 40 * DAY))));
    const recent = await insertAudit(ago(10));

    const run = await runJob(platform.decisionInstances[0]!.app, decisionAuditRetentionJob.jobName, now);
    expect(run.status).toBe('succeeded');
    expect(run.detail).toMatch(/^15 rows in 2 batches, /);
    expect(run.detail).toContain(`dropped partitions ${partitionName(oldMonth)}`);
    expect(await partitionExists(partitionName(oldMonth))).toBe(false);
    expect(await partitionOf(inOldMonth)).toBeUndefined();
    for (const id of inDefault) expect(await partitionOf(id)).toBeUndefined();
    expect(await partitionOf(recent)).toBe(`authz_audit.${partitionName(monthStart(ago(10)))}`);
  });

  it('refuses a retention that is not a positive number of days, with the key named', () => {
    expect(() => authzDecisionConfig.load({ DECISION_AUDIT_RETENTION_DAYS: '0' })).toThrow(/DECISION_AUDIT_RETENTION_DAYS/);
    expect(() => policyManagementConfig.load({ POLICY_CHANGE_LOG_RETENTION_DAYS: '-5' })).toThrow(/POLICY_CHANGE_LOG_RETENTION_DAYS/);
    expect(() => platformConfig.load({ PROCESSED_EVENT_RETENTION_DAYS: 'soon' })).toThrow(/PROCESSED_EVENT_RETENTION_DAYS/);
  });
});
