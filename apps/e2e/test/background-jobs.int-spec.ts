import { randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { EventTypes, JobRunResult, SEEDED_TENANT, ServiceRpc, TrustedCaller } from '@lp/contracts';
import { ServiceJobs } from '@lp/platform/jobs';
import { createEventEnvelope, OutboxRelay, RpcClient, RpcRemoteError } from '@lp/platform/messaging';
import { describeWithServers } from '@lp/platform/testing';
import { expireGrantsJob } from '@lp/service/policy-management';
import { PolicyTestPlatform } from './support/policy-platform';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** How operations' scheduler calls a service: an application caller holding the scope. */
const operationsCaller = (scopes: string[]): TrustedCaller => ({
  kind: 'application',
  subject: 'operations',
  clientId: 'operations',
  tenantId: SEEDED_TENANT,
  scopes,
  claimsDigest: `ops-${scopes.join(',')}`,
});

/** Bounded polling: `check` until it holds, or fail after `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The background jobs of policy-management and authz-decision on PostgreSQL, RabbitMQ and Redis:
 * each service's catalog closes over its bindings (the apps booted), expire-grants records the end
 * of what ran out once, the outbox sweep publishes what the loop left and purges old sent rows, and
 * `service.jobs.run` is refused to a caller without `operations.jobs.manage`.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'background jobs of the services', () => {
  const platform = new PolicyTestPlatform('background-jobs');
  beforeAll(() => platform.start(), 90_000);
  afterAll(() => platform.stop());

  const runOverRpc = (jobName: string, scopes = ['operations.jobs.manage']): Promise<JobRunResult> =>
    platform.policy.app.get(RpcClient).call(ServiceRpc.runJob('policy-management'), {
      caller: operationsCaller(scopes),
      payload: { jobName, trigger: 'manual', executionId: randomUUID() },
    });
  const runLocally = (app: INestApplication, jobName: string, now = new Date()) =>
    app.get(ServiceJobs).run({ jobName, trigger: 'schedule', executionId: randomUUID(), scheduledFor: now, now });

  it('has booted each service with its catalog: the platform jobs and its own, each bound once', () => {
    const names = (app: INestApplication) => app.get(ServiceJobs).catalog.map((j) => j.jobName);
    expect(names(platform.policy.app).sort()).toEqual([
      'policy-management.change-log-retention',
      'policy-management.expire-grants',
      'policy-management.outbox-sweep',
      'policy-management.processed-events-retention',
    ]);
    expect(names(platform.decisionInstances[0]!.app).sort()).toEqual([
      'authz-decision.decision-audit-retention',
      'authz-decision.outbox-sweep',
      'authz-decision.processed-events-retention',
    ]);
    expect(platform.policy.app.get(ServiceJobs).catalog.find((j) => j.jobName === expireGrantsJob.jobName)?.defaultSchedule).toEqual({ intervalSeconds: 60 });
  });

  describe('outbox sweep', () => {
    it('publishes a row whose lease lapsed, purges sent rows past retention, and reports both', async () => {
      const relay = platform.policy.app.get(OutboxRelay);
      // The loop would take the row itself within a second: stopped, as when it is backing off or its replica died.
      await relay.stop();
      try {
        await relay.relayPending();
        const envelope = createEventEnvelope(
          EventTypes.authorization.delegationChanged,
          { tenantId: 'sweep', delegationId: 'd-sweep', subjects: ['a', 'b'], change: 'granted' },
          { tenantId: 'sweep' },
        );
        const [left] = await platform.sql.query(
          `INSERT INTO authz.outbox_message (event_id, event_type, envelope, locked_until) VALUES ($1, $2, $3, now() - interval '1 minute') RETURNING id`,
          [envelope.eventId, envelope.eventType, JSON.stringify(envelope)],
        );
        const [old] = await platform.sql.query(
          `INSERT INTO authz.outbox_message (event_id, event_type, envelope, sent_at, created_at) VALUES ($1, $2, $3, $4, $4) RETURNING id`,
          [`old-${randomUUID()}`, envelope.eventType, JSON.stringify(envelope), new Date(Date.now() - 8 * DAY)],
        );
        const [recent] = await platform.sql.query(
          `INSERT INTO authz.outbox_message (event_id, event_type, envelope, sent_at, created_at) VALUES ($1, $2, $3, $4, $4) RETURNING id`,
          [`recent-${randomUUID()}`, envelope.eventType, JSON.stringify(envelope), new Date(Date.now() - 6 * DAY)],
        );

        const result = await runLocally(platform.policy.app, 'policy-management.outbox-sweep');
        expect(result).toEqual({
          status: 'succeeded',
          detail: expect.stringMatching(/^published 1 \(1 with a lapsed lease\), purged 1 sent, 0 unsent$/),
          startedAt: expect.any(String),
        });
        // Marked sent only on the broker's confirm.
        const [row] = await platform.sql.query(`SELECT sent_at FROM authz.outbox_message WHERE id = $1`, [left.id]);
        expect(row.sent_at).not.toBeNull();
        expect(await platform.count('outbox_message', 'id = ANY ($1::bigint[])', [[old.id, recent.id]])).toBe(1);
        expect(await platform.count('outbox_message', 'id = $1', [recent.id])).toBe(1);

        expect((await runLocally(platform.policy.app, 'policy-management.outbox-sweep')).detail).toBe(
          'published 0 (0 with a lapsed lease), purged 0 sent, 0 unsent',
        );
      } finally {
        relay.start();
      }
    });
  });

  describe('expire-grants', () => {
    const insertGrant = async (tenantId: string, subject: string, expiresAt: Date, extra: { revokedAt?: Date; sourceId?: string } = {}) => {
      const [row] = await platform.sql.query(
        `INSERT INTO authz.temporary_grant (tenant_id, subject, permission_codes, reason, expires_at, revoked_at, source, source_id, created_by)
         VALUES ($1, $2, ARRAY['authorization.role.view'], 'test', $3, $4, 'permission-request', $5, 'test') RETURNING id`,
        [tenantId, subject, expiresAt, extra.revokedAt ?? null, extra.sourceId ?? null],
      );
      return row.id as string;
    };
    const insertDelegation = async (tenantId: string, delegator: string, actor: string, expiresAt: Date) => {
      const [row] = await platform.sql.query(
        `INSERT INTO authz.delegated_grant (tenant_id, delegator, actor, permission_codes, expires_at) VALUES ($1, $2, $3, ARRAY['authorization.role.view'], $4) RETURNING id`,
        [tenantId, delegator, actor, expiresAt],
      );
      return row.id as string;
    };
    const expiredAt = async (table: string, id: string) =>
      (await platform.sql.query(`SELECT expired_at FROM authz.${table} WHERE id = $1`, [id]))[0].expired_at as Date | null;
    const events = (eventType: string, key: string, id: string) =>
      platform.sql.query(`SELECT envelope->'payload' AS payload, sent_at FROM authz.outbox_message WHERE event_type = $1 AND envelope->'payload'->>$2 = $3`, [
        eventType,
        key,
        id,
      ]);

    it('is refused over RPC to a caller without operations.jobs.manage (403 Authorization.Denied), and runs nothing', async () => {
      const grant = await insertGrant('acme', 'denied-case', new Date(Date.now() - MINUTE));
      const error = await runOverRpc(expireGrantsJob.jobName, ['operations.jobs.view']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcRemoteError);
      expect((error as RpcRemoteError).problem).toMatchObject({ status: 403, code: 'Authorization.Denied' });
      expect(await expiredAt('temporary_grant', grant)).toBeNull();
      await platform.sql.query(`DELETE FROM authz.temporary_grant WHERE id = $1`, [grant]);
    });

    it('marks an expired temporary grant and an expired delegation, logs and publishes each, and a second run does nothing', async () => {
      const past = new Date(Date.now() - 5 * MINUTE);
      const future = new Date(Date.now() + 60 * MINUTE);
      const [request] = await platform.sql.query(
        `INSERT INTO authz.permission_request (tenant_id, subject, permission_codes, duration_seconds, reason, status, decided_by, decided_at)
         VALUES ('acme', 'hugo', ARRAY['authorization.role.view'], 60, 'audit', 'approved', 'ann', $1) RETURNING id`,
        [past],
      );
      const grant = await insertGrant('acme', 'hugo', past, { sourceId: request.id });
      await platform.sql.query(`UPDATE authz.permission_request SET grant_id = $1 WHERE id = $2`, [grant, request.id]);
      const delegation = await insertDelegation('globex', 'gail', 'gus', past);
      const activeGrant = await insertGrant('acme', 'ines', future);
      const revokedGrant = await insertGrant('acme', 'jon', past, { revokedAt: new Date(Date.now() - 10 * MINUTE) });
      const activeDelegation = await insertDelegation('globex', 'gail', 'kai', future);

      const first = await runOverRpc(expireGrantsJob.jobName);
      expect(first).toEqual({
        status: 'succeeded',
        detail: 'expired 1 temporary grants (1 permission requests) and 1 delegations',
        startedAt: expect.any(String),
      });

      expect(await expiredAt('temporary_grant', grant)).not.toBeNull();
      expect(await expiredAt('delegated_grant', delegation)).not.toBeNull();
      for (const [table, id] of [
        ['temporary_grant', activeGrant],
        ['temporary_grant', revokedGrant],
        ['delegated_grant', activeDelegation],
      ] as const)
        expect(await expiredAt(table, id)).toBeNull();
      const [stored] = await platform.sql.query(`SELECT status FROM authz.permission_request WHERE id = $1`, [request.id]);
      expect(stored.status).toBe('expired');

      const log = await platform.sql.query(
        `SELECT tenant_id, actor, actor_kind, change, target_id FROM authz.policy_change_log WHERE target_id = ANY ($1::text[]) ORDER BY change`,
        [[grant, delegation, request.id]],
      );
      expect(log).toEqual([
        { tenant_id: 'globex', actor: 'policy-management:grant-expiry', actor_kind: 'application', change: 'delegation.expired', target_id: delegation },
        { tenant_id: 'acme', actor: 'policy-management:grant-expiry', actor_kind: 'application', change: 'permission-request.expired', target_id: request.id },
        { tenant_id: 'acme', actor: 'policy-management:grant-expiry', actor_kind: 'application', change: 'temporary-grant.expired', target_id: grant },
      ]);

      const grantEvents = await events(EventTypes.authorization.temporaryGrantChanged, 'grantId', grant);
      expect(grantEvents.map((e: { payload: object }) => e.payload)).toEqual([
        { tenantId: 'acme', grantId: grant, subject: 'hugo', permissionCodes: ['authorization.role.view'], expiresAt: past.toISOString(), change: 'expired' },
      ]);
      const delegationEvents = await events(EventTypes.authorization.delegationChanged, 'delegationId', delegation);
      expect(delegationEvents.map((e: { payload: object }) => e.payload)).toEqual([
        { tenantId: 'globex', delegationId: delegation, subjects: ['gail', 'gus'], change: 'expired' },
      ]);
      const requestEvents = await events(EventTypes.authorization.permissionRequestChanged, 'requestId', request.id);
      expect(requestEvents.map((e: { payload: object }) => e.payload)).toEqual([
        { tenantId: 'acme', requestId: request.id, subject: 'hugo', status: 'expired' },
      ]);
      // Published: the relay marks a row sent on the broker's confirm.
      await eventually(async () =>
        (
          await Promise.all([
            events(EventTypes.authorization.temporaryGrantChanged, 'grantId', grant),
            events(EventTypes.authorization.delegationChanged, 'delegationId', delegation),
            events(EventTypes.authorization.permissionRequestChanged, 'requestId', request.id),
          ])
        ).every((rows) => rows.every((r: { sent_at: Date | null }) => r.sent_at !== null)),
      );

      const logBefore = await platform.count('policy_change_log');
      const outboxBefore = await platform.count('outbox_message');
      expect(await runOverRpc(expireGrantsJob.jobName)).toEqual({
        status: 'succeeded',
        detail: 'expired 0 temporary grants (0 permission requests) and 0 delegations',
        startedAt: expect.any(String),
      });
      expect(await platform.count('policy_change_log')).toBe(logBefore);
      expect(await platform.count('outbox_message')).toBe(outboxBefore);
    });

    it('works through a backlog larger than one batch, each tenant in its own transaction', async () => {
      const past = new Date(Date.now() - MINUTE);
      await platform.sql.query(
        `INSERT INTO authz.temporary_grant (tenant_id, subject, permission_codes, reason, expires_at, source, created_by)
         SELECT CASE WHEN g % 2 = 0 THEN 'acme' ELSE 'globex' END, 'bulk-' || g, ARRAY['authorization.role.view'], 'bulk', $1, 'test', 'test'
           FROM generate_series(1, 230) g`,
        [past],
      );
      expect((await runLocally(platform.policy.app, expireGrantsJob.jobName)).detail).toBe(
        'expired 230 temporary grants (0 permission requests) and 0 delegations',
      );
      expect(await platform.count('temporary_grant', `subject LIKE 'bulk-%' AND expired_at IS NULL`)).toBe(0);
      expect(await platform.count('policy_change_log', `change = 'temporary-grant.expired' AND tenant_id = 'globex'`)).toBe(115);
    });
  });
});
