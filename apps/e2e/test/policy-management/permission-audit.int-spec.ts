import { describeWithServers } from '@lp/platform/testing';
import { expectConformance, servedDocument } from '../support/openapi-conformance';
import { PolicyTestPlatform } from '../support/policy-platform';

const DECISIONS = '/api/authorization/permission-audit/decisions';
const CHANGES = '/api/authorization/permission-audit/changes';

interface AuditItem {
  decisionId: string;
  tenantId: string;
  callerKind: string;
  clientId: string | null;
  actor: string | null;
  reasonCode: string | null;
  correlationId: string | null;
  subject: string;
  outcome: string;
  action: string;
  module: string;
  resourceType: string;
  decidedAt: string;
}

interface ChangeItem {
  id: string;
  tenantId: string | null;
  actor: string;
  change: string;
  targetType: string;
  targetId: string;
  occurredAt: string;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'policy-management permission audit', () => {
  const platform = new PolicyTestPlatform('perm-audit');
  beforeAll(async () => {
    await platform.start();
    await platform.seedTenantAdmin('acme', 'ann');
  }, 90_000);
  afterAll(() => platform.stop());

  const auditCount = async (tenantId: string, subject: string, outcome?: string): Promise<number> => {
    const [row] = await platform.sql.query(
      `SELECT count(*)::int AS n FROM authz_audit.decision_audit WHERE tenant_id = $1 AND subject = $2 AND ($3::text IS NULL OR outcome = $3)`,
      [tenantId, subject, outcome ?? null],
    );
    return row.n;
  };
  /** The audit is written in the background (every 20 ms here): wait until the rows are there. */
  const auditedAtLeast = async (tenantId: string, subject: string, outcome: string, n: number) => {
    const deadline = Date.now() + 5_000;
    while ((await auditCount(tenantId, subject, outcome)) < n) {
      if (Date.now() > deadline) throw new Error(`audit of ${subject} ${outcome} never reached ${n}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  describe('GET /permission-audit/decisions', () => {
    beforeAll(async () => {
      await platform.as().get('/api/authorization/roles').expect(200);
      await platform.as('bob').get('/api/authorization/roles').expect(403);
      await platform.as('bob').get('/api/authorization/roles').expect(403);
      await platform.as('ann', 'acme').get('/api/authorization/roles').set('X-Correlation-Id', 'audit-acme-1').expect(200);
      // An application (client credentials, decided by scope) and a delegated caller with no grant.
      await platform
        .as('reporter', 'default', { clientId: 'reporter', scopes: ['authorization.role.view'] })
        .get('/api/authorization/roles')
        .set('X-Correlation-Id', 'audit-app-1')
        .expect(200);
      await platform.as('dora', 'default', { actor: 'dan' }).get('/api/authorization/roles').set('X-Correlation-Id', 'audit-delegated-1').expect(403);
      await auditedAtLeast('default', 'reporter', 'Permit', 1);
      await auditedAtLeast('default', 'dora', 'NoMatchingPolicy', 1);
      await auditedAtLeast('default', 'admin', 'Permit', 1);
      await auditedAtLeast('default', 'bob', 'NoMatchingPolicy', 2);
      await auditedAtLeast('acme', 'ann', 'Permit', 1);
    });

    it("shows the tenant's decisions filtered by subject and outcome, newest first", async () => {
      const bob = await platform.as().get(`${DECISIONS}?subject=bob&outcome=NoMatchingPolicy`).expect(200);
      expect(bob.body.totalCount).toBe(await auditCount('default', 'bob', 'NoMatchingPolicy'));
      expect(bob.body.items.length).toBeGreaterThanOrEqual(2);
      for (const item of bob.body.items as AuditItem[]) {
        expect(item).toEqual(
          expect.objectContaining({
            tenantId: 'default',
            subject: 'bob',
            outcome: 'NoMatchingPolicy',
            module: 'authorization',
            resourceType: 'role',
            action: 'View',
          }),
        );
      }
      const times = (bob.body.items as AuditItem[]).map((i) => i.decidedAt);
      expect([...times].sort().reverse()).toEqual(times);

      const admin = await platform.as().get(`${DECISIONS}?subject=admin&outcome=Permit&pageSize=100`).expect(200);
      expect(admin.body.items.length).toBeGreaterThanOrEqual(1);
      expect((admin.body.items as AuditItem[]).every((i) => i.subject === 'admin' && i.outcome === 'Permit')).toBe(true);
      expect((admin.body.items as AuditItem[]).some((i) => i.resourceType === 'role' && i.action === 'View')).toBe(true);

      const none = await platform.as().get(`${DECISIONS}?subject=bob&outcome=Permit`).expect(200);
      expect(none.body).toEqual(expect.objectContaining({ items: [], totalCount: 0 }));
    });

    it('filters by caller kind: people, applications and delegated callers apart', async () => {
      const list = async (query: string) => (await platform.as().get(`${DECISIONS}?pageSize=100&${query}`).expect(200)).body.items as AuditItem[];
      const applications = await list('callerKind=application');
      expect(applications.map((i) => i.subject)).toContain('reporter');
      expect(applications.every((i) => i.callerKind === 'application')).toBe(true);
      const people = await list('callerKind=user');
      expect(people.map((i) => i.subject)).toEqual(expect.arrayContaining(['admin', 'bob']));
      expect(people.every((i) => i.callerKind === 'user')).toBe(true);
      expect(await list('callerKind=delegated')).toEqual([
        expect.objectContaining({ callerKind: 'delegated', subject: 'dora', actor: 'dan', outcome: 'NoMatchingPolicy', reasonCode: 'AllNeutral' }),
      ]);
      const reporter = await list('clientId=reporter');
      expect(reporter.length).toBeGreaterThanOrEqual(1);
      expect(reporter.every((i) => i.clientId === 'reporter' && i.callerKind === 'application')).toBe(true);
    });

    it('filters by module, resource type (any case), action, reason code and correlation id, all together', async () => {
      const res = await platform
        .as()
        .get(`${DECISIONS}?module=Authorization&resourceType=ROLE&action=View&reasonCode=AnyAllow&correlationId=audit-app-1`)
        .expect(200);
      expect(res.body.totalCount).toBe(1);
      expect(res.body.items).toEqual([
        expect.objectContaining({
          subject: 'reporter',
          module: 'authorization',
          resourceType: 'role',
          action: 'View',
          reasonCode: 'AnyAllow',
          correlationId: 'audit-app-1',
        }),
      ]);
      for (const query of [
        'action=Create&correlationId=audit-app-1',
        'reasonCode=AnyDeny&correlationId=audit-app-1',
        'module=cases&correlationId=audit-app-1',
      ]) {
        expect((await platform.as().get(`${DECISIONS}?${query}`).expect(200)).body.totalCount).toBe(0);
      }
      // Another tenant's correlation id finds nothing here.
      expect((await platform.as().get(`${DECISIONS}?correlationId=audit-acme-1`).expect(200)).body.totalCount).toBe(0);
    });

    it('answers one decision by id as the list shows it; an unknown, malformed or other tenant’s id is 404', async () => {
      const [listed] = (await platform.as().get(`${DECISIONS}?correlationId=audit-app-1`).expect(200)).body.items as AuditItem[];
      const one = await platform.as().get(`${DECISIONS}/${listed?.decisionId}`).expect(200);
      expect(one.body).toEqual(listed);
      const [acme] = (await platform.as('ann', 'acme').get(`${DECISIONS}?correlationId=audit-acme-1`).expect(200)).body.items as AuditItem[];
      expect(acme?.tenantId).toBe('acme');
      await platform.as('ann', 'acme').get(`${DECISIONS}/${acme?.decisionId}`).expect(200);
      for (const id of [acme?.decisionId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const res = await platform.as().get(`${DECISIONS}/${id}`).expect(404);
        expect([res.headers['content-type'], res.body.code]).toEqual([expect.stringMatching(/application\/problem\+json/), 'NotFound']);
      }
      const denied = await platform.as('bob').get(`${DECISIONS}/${listed?.decisionId}`).expect(403);
      expect(denied.body.code).toBe('Authorization.Denied');
    });

    it('answers the list and one decision as the served OpenAPI document says, revisions included', async () => {
      const document = await servedDocument(platform.policy);
      const list = await platform.as().get(`${DECISIONS}?pageSize=50`).expect(200);
      expect(list.body.items.length).toBeGreaterThan(0);
      // Decisions keep the revision counters they read (the field the document did not describe); null when none were read.
      const items = list.body.items as Array<{ decisionId: string; revisions: Record<string, number> | null }>;
      const read = items.find((i) => i.revisions !== null);
      expect(read?.revisions).toEqual({
        tenantPolicy: expect.any(Number),
        subject: expect.any(Number),
        featureGlobal: expect.any(Number),
        featureTenant: expect.any(Number),
        rebac: expect.any(Number),
      });
      // The document names every counter (the check below refuses a field it does not name, but not a shapeless object).
      const described = document.components?.schemas?.['DecisionRevisionsResponse'];
      expect(Object.keys((described?.['properties'] ?? {}) as object).sort()).toEqual(Object.keys(read?.revisions ?? {}).sort());
      expectConformance(document, 'get', DECISIONS, list);
      for (const item of [read, items.find((i) => i.revisions === null)]) {
        if (item) expectConformance(document, 'get', `${DECISIONS}/{decisionId}`, await platform.as().get(`${DECISIONS}/${item.decisionId}`).expect(200));
      }
    });

    it('pages and windows by time (from inclusive, to exclusive)', async () => {
      const all = await platform.as().get(`${DECISIONS}?subject=bob&pageSize=1`).expect(200);
      expect(all.body.items).toHaveLength(1);
      expect(all.body.totalCount).toBeGreaterThanOrEqual(2);
      const newest: AuditItem = all.body.items[0];
      const window = await platform
        .as()
        .get(`${DECISIONS}?subject=bob&from=${encodeURIComponent(newest.decidedAt)}`)
        .expect(200);
      expect((window.body.items as AuditItem[]).map((i) => i.decisionId)).toContain(newest.decisionId);
      const before = await platform
        .as()
        .get(`${DECISIONS}?subject=bob&to=${encodeURIComponent(newest.decidedAt)}&pageSize=100`)
        .expect(200);
      expect((before.body.items as AuditItem[]).map((i) => i.decisionId)).not.toContain(newest.decisionId);
    });

    it("never shows another tenant's decisions", async () => {
      const fromAcme = await platform.as('ann', 'acme').get(`${DECISIONS}?pageSize=100`).expect(200);
      expect(fromAcme.body.items.length).toBeGreaterThanOrEqual(1);
      expect((fromAcme.body.items as AuditItem[]).every((i) => i.tenantId === 'acme')).toBe(true);
      const bobFromAcme = await platform.as('ann', 'acme').get(`${DECISIONS}?subject=bob`).expect(200);
      expect(bobFromAcme.body).toEqual(expect.objectContaining({ items: [], totalCount: 0 }));
      const annFromDefault = await platform.as().get(`${DECISIONS}?subject=ann`).expect(200);
      expect(annFromDefault.body.totalCount).toBe(0);
    });

    it.each([
      ['outcome=Maybe', 'outcome'],
      ['from=yesterday', 'from'],
      ['to=2026-13-45T00:00:00Z', 'to'],
      ['from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
      ['pageSize=101', 'pageSize'],
      ['pageIndex=-1', 'pageIndex'],
      [`subject=${'x'.repeat(256)}`, 'subject'],
      ['tenantId=acme', 'tenantId'],
      ['callerKind=robot', 'callerKind'],
      ['callerKind=user&callerKind=application', 'callerKind'],
      ['clientId=', 'clientId'],
      ['module=not%20a%20module', 'module'],
      [`resourceType=${'r'.repeat(61)}`, 'resourceType'],
      ['action=view', 'action'],
      ['reasonCode=Because', 'reasonCode'],
      ['correlationId=a%20b', 'correlationId'],
    ])('refuses %s with 400 Validation.Failed', async (query, field) => {
      const res = await platform.as().get(`${DECISIONS}?${query}`).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('denies a caller without authorization.permission-audit.view', async () => {
      const res = await platform.as('bob').get(DECISIONS).expect(403);
      expect(res.body.code).toBe('Authorization.Denied');
    });
  });

  describe('GET /permission-audit/changes', () => {
    const insertChange = async (tenantId: string | null, change: string, actor: string, occurredAt: string, targetType = 'role') => {
      const [row] = await platform.sql.query(
        `INSERT INTO authz.policy_change_log (tenant_id, actor, actor_kind, change, target_type, target_id, before, after, occurred_at)
         VALUES ($1, $2, 'user', $3, $4, $5, NULL, '{"name":"x"}'::jsonb, $6) RETURNING id`,
        [tenantId, actor, change, targetType, `t-${change}`, occurredAt],
      );
      return row.id as string;
    };
    let older: string;
    let newer: string;
    let acmeOnly: string;
    let global: string;

    beforeAll(async () => {
      older = await insertChange('default', 'role.created', 'alice', '2030-01-01T00:00:00Z');
      newer = await insertChange('default', 'role.updated', 'carol', '2030-01-02T00:00:00Z');
      acmeOnly = await insertChange('acme', 'role.deleted', 'ann', '2030-01-03T00:00:00Z');
      global = await insertChange(null, 'feature.global-changed', 'root', '2030-01-04T00:00:00Z', 'feature');
    });

    it('lists the tenant’s changes and the global ones, newest first, including the seed', async () => {
      const res = await platform.as().get(`${CHANGES}?pageSize=100`).expect(200);
      const items: ChangeItem[] = res.body.items;
      const ids = items.map((i) => i.id);
      expect(ids.slice(0, 3)).toEqual([global, newer, older]);
      expect(ids).not.toContain(acmeOnly);
      expect(items.every((i) => i.tenantId === 'default' || i.tenantId === null)).toBe(true);
      expect(items.some((i) => i.actor === 'policy-management:seed' && i.tenantId === 'default')).toBe(true);
      const times = items.map((i) => i.occurredAt);
      expect([...times].sort().reverse()).toEqual(times);
      expect(res.body.totalCount).toBe(await platform.count('policy_change_log', `tenant_id = 'default' OR tenant_id IS NULL`));
    });

    it("never shows another tenant's changes", async () => {
      const res = await platform.as('ann', 'acme').get(`${CHANGES}?pageSize=100`).expect(200);
      const ids = (res.body.items as ChangeItem[]).map((i) => i.id);
      expect(ids).toEqual(expect.arrayContaining([acmeOnly, global]));
      expect(ids).not.toContain(older);
      expect(ids).not.toContain(newer);
      expect((res.body.items as ChangeItem[]).every((i) => i.tenantId === 'acme' || i.tenantId === null)).toBe(true);
    });

    it('filters by change, actor, target type and time window', async () => {
      const byChange = await platform.as().get(`${CHANGES}?change=role.updated`).expect(200);
      expect((byChange.body.items as ChangeItem[]).map((i) => i.id)).toEqual([newer]);
      const byActor = await platform.as().get(`${CHANGES}?actor=alice`).expect(200);
      expect((byActor.body.items as ChangeItem[]).map((i) => i.id)).toEqual([older]);
      const byType = await platform.as().get(`${CHANGES}?targetType=feature`).expect(200);
      expect((byType.body.items as ChangeItem[]).map((i) => i.id)).toEqual([global]);
      const window = await platform.as().get(`${CHANGES}?from=2030-01-01T00:00:00Z&to=2030-01-04T00:00:00Z`).expect(200);
      expect((window.body.items as ChangeItem[]).map((i) => i.id)).toEqual([newer, older]);
      const acmeActor = await platform.as().get(`${CHANGES}?actor=ann`).expect(200);
      expect(acmeActor.body.totalCount).toBe(0);
    });

    it.each([
      ['from=nope', 'from'],
      ['from=2030-02-01T00:00:00Z&to=2030-01-01T00:00:00Z', 'to'],
      [`change=${'c'.repeat(81)}`, 'change'],
      ['pageSize=0', 'pageSize'],
      ['tenantId=acme', 'tenantId'],
    ])('refuses %s with 400 Validation.Failed', async (query, field) => {
      const res = await platform.as().get(`${CHANGES}?${query}`).expect(400);
      expect(res.body.code).toBe('Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('denies a caller without authorization.permission-audit.view, and writes nothing', async () => {
      const log = await platform.count('policy_change_log');
      const outbox = await platform.count('outbox_message');
      const res = await platform.as('bob').get(CHANGES).expect(403);
      expect(res.body.code).toBe('Authorization.Denied');
      expect(await platform.count('policy_change_log')).toBe(log);
      expect(await platform.count('outbox_message')).toBe(outbox);
    });
  });
});
