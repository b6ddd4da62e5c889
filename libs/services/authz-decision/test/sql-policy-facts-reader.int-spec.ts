import { readFileSync } from 'node:fs';
import { POLICY_READER_TEST_SCHEMA } from './policy-reader-test-schema';
import { DataSource, Logger as TypeOrmLogger } from 'typeorm';
import { AuthorizationAction, parsePermissionCode, TrustedCaller, validateDecisionRequest } from '@lp/contracts';
import { serviceDataSourceOptions } from '@lp/platform/persistence';
import { createTestDatabase, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { AbacField, AbacOperator, AbacVerdict, DecisionEngine, SubjectPermissions } from '../src/engine';
import { SqlPolicyFactsReader } from '../src/policy-facts/sql-policy-facts-reader';

/** Counts the statements TypeORM sends: one per round trip. */
class QueryCounter implements TypeOrmLogger {
  count = 0;
  logQuery(): void {
    this.count++;
  }
  logQueryError(): void {
    // counted by logQuery already
  }
  logQuerySlow(): void {
    // not relevant here
  }
  logSchemaBuild(): void {
    // not relevant here
  }
  logMigration(): void {
    // not relevant here
  }
  log(): void {
    // not relevant here
  }
}

const FUTURE = '2999-01-01T00:00:00.123Z';
const LATER = '2999-06-01T00:00:00.000Z';
const PAST = '2001-01-01T00:00:00.000Z';

const CATALOG = ['cases.case.view', 'cases.case.update', 'billing.invoice.view', 'billing.invoice.approve', 'tickets.ticket.view'];

describeWithServers(['postgres'], 'SqlPolicyFactsReader on PostgreSQL', () => {
  let db: TestDatabase;
  /** Plays policy-management: builds the schema from the fixture and writes the facts. */
  let admin: DataSource;
  /** authz-decision's own DataSource: default schema authz_audit, read-only session. */
  let readerDs: DataSource;
  const counter = new QueryCounter();
  let reader: SqlPolicyFactsReader;
  const ids: Record<string, string> = {};

  async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return admin.query(text, params);
  }

  async function sqlOne<T>(text: string, params: unknown[] = []): Promise<T> {
    const [row] = await sql<T>(text, params);
    if (!row) throw new Error(`expected a row from: ${text}`);
    return row;
  }

  async function defineRole(tenantId: string, name: string, dataScope: string, codes: string[]): Promise<string> {
    const { id } = await sqlOne<{ id: string }>(`INSERT INTO "authz"."role" ("tenant_id", "name", "data_scope") VALUES ($1, $2, $3) RETURNING "id"`, [
      tenantId,
      name,
      dataScope,
    ]);
    await sql(
      `INSERT INTO "authz"."role_permission" ("tenant_id", "role_id", "role_name", "permission_id", "permission_code", "module", "created_by")
       SELECT $1, $2, $3, p."id", p."code", p."module", 'seed' FROM "authz"."permission" p WHERE p."code" = ANY($4)`,
      [tenantId, id, name, codes],
    );
    return id;
  }

  async function bind(tenantId: string, subject: string, roleId: string, roleName: string): Promise<void> {
    await sql(`INSERT INTO "authz"."user_role" ("tenant_id", "subject", "role_id", "role_name", "created_by") VALUES ($1, $2, $3, $4, 'seed')`, [
      tenantId,
      subject,
      roleId,
      roleName,
    ]);
  }

  interface GrantOptions {
    dataScope?: string;
    revoked?: boolean;
  }

  async function temporaryGrant(key: string, tenantId: string, subject: string, codes: string[], expiresAt: string, extra: GrantOptions = {}) {
    const { id } = await sqlOne<{ id: string }>(
      `INSERT INTO "authz"."temporary_grant"
         ("tenant_id", "subject", "permission_codes", "data_scope", "reason", "expires_at", "revoked_at", "source", "source_id", "created_by")
       VALUES ($1, $2, $3, $4, 'audit season', $5, $6, 'permission-request', $7, 'workflow') RETURNING "id"`,
      [tenantId, subject, codes, extra.dataScope ?? null, expiresAt, extra.revoked ? PAST : null, `req-${key}`],
    );
    ids[key] = id;
  }

  async function delegatedGrant(key: string, tenantId: string, delegator: string, actor: string, codes: string[], expiresAt: string, revoked = false) {
    const { id } = await sqlOne<{ id: string }>(
      `INSERT INTO "authz"."delegated_grant" ("tenant_id", "delegator", "actor", "permission_codes", "expires_at", "revoked_at")
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING "id"`,
      [tenantId, delegator, actor, codes, expiresAt, revoked ? PAST : null],
    );
    ids[key] = id;
  }

  interface RuleValues {
    name: string;
    priority: number;
    verdict: number;
    conditions: unknown[];
    actions?: string[];
    modules?: string[];
    resourceTypes?: string[];
    obligations?: string[];
    enabled?: boolean;
  }

  async function abacRule(key: string, tenantId: string, values: RuleValues) {
    const { id } = await sqlOne<{ id: string }>(
      `INSERT INTO "authz"."abac_rule"
         ("tenant_id", "name", "priority", "verdict", "conditions", "actions", "modules", "resource_types", "obligations", "enabled")
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10) RETURNING "id"`,
      [
        tenantId,
        values.name,
        values.priority,
        values.verdict,
        JSON.stringify(values.conditions),
        values.actions ?? [],
        values.modules ?? [],
        values.resourceTypes ?? [],
        values.obligations ?? [],
        values.enabled ?? true,
      ],
    );
    ids[key] = id;
  }

  async function relation(tenantId: string, subject: string, resourceType: string, resourceId: string, name: string, subjectKind = 'user'): Promise<void> {
    await sql(
      `INSERT INTO "authz"."resource_relation" ("tenant_id", "subject", "resource_type", "resource_id", "relation", "subject_kind", "created_by")
       VALUES ($1, $2, $3, $4, $5, $6, 'seed')`,
      [tenantId, subject, resourceType, resourceId, name, subjectKind],
    );
  }

  beforeAll(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('authz_facts'));
    admin = await new DataSource(serviceDataSourceOptions({ url: db.url, schema: 'authz', entities: [], migrations: [], poolSize: 1 })).initialize();
    await admin.query(readFileSync(POLICY_READER_TEST_SCHEMA, 'utf8'));
    await admin.query(`CREATE SCHEMA "authz_audit"`);

    const base = serviceDataSourceOptions({ url: db.url, schema: 'authz_audit', entities: [], migrations: [], poolSize: 2 });
    readerDs = await new DataSource({
      ...base,
      logger: counter,
      // A read-only session: any write by the reader would fail the suite.
      extra: { ...(base.extra as object), options: '-c default_transaction_read_only=on' },
    }).initialize();
    reader = new SqlPolicyFactsReader(readerDs);

    for (const code of CATALOG) {
      const parts = parsePermissionCode(code)!;
      await sql(`INSERT INTO "authz"."permission" ("code", "module", "resource", "action") VALUES ($1, $2, $3, $4)`, [
        code,
        parts.module,
        parts.resource,
        parts.action,
      ]);
    }

    // acme: alice holds three roles (one without codes), bob one; globex reuses the names.
    const clerk = await defineRole('acme', 'clerk', 'office', ['cases.case.view', 'cases.case.update']);
    const auditor = await defineRole('acme', 'auditor', 'tenant', ['billing.invoice.view']);
    const empty = await defineRole('acme', 'empty', 'own', []);
    await defineRole('acme', 'unbound', 'tenant', ['tickets.ticket.view']);
    const globexClerk = await defineRole('globex', 'clerk', 'tenant', ['tickets.ticket.view']);
    await bind('acme', 'alice', clerk, 'clerk');
    await bind('acme', 'alice', auditor, 'auditor');
    await bind('acme', 'alice', empty, 'empty');
    await bind('acme', 'bob', auditor, 'auditor');
    await bind('globex', 'alice', globexClerk, 'clerk');

    await sql(
      `INSERT INTO "authz"."subject_office" ("tenant_id", "subject", "office_id")
       VALUES ('acme', 'alice', 'o-2'), ('acme', 'alice', 'o-1'), ('globex', 'alice', 'o-9')`,
    );

    await temporaryGrant('active', 'acme', 'alice', ['billing.invoice.approve'], FUTURE, { dataScope: 'own' });
    await temporaryGrant('expired', 'acme', 'alice', ['tickets.ticket.view'], PAST);
    await temporaryGrant('revoked', 'acme', 'alice', ['cases.case.update'], FUTURE, { revoked: true });
    await temporaryGrant('globex', 'globex', 'alice', ['cases.case.view'], FUTURE);

    await delegatedGrant('delegation', 'acme', 'alice', 'assistant', ['cases.case.view', 'billing.invoice.view'], LATER);
    await delegatedGrant('delegation-expired', 'acme', 'alice', 'intern', ['cases.case.view'], PAST);
    await delegatedGrant('delegation-revoked', 'acme', 'alice', 'assistant', ['cases.case.update'], LATER, true);
    await delegatedGrant('delegation-to-alice', 'acme', 'carol', 'alice', ['cases.case.view'], LATER);

    await relation('acme', 'alice', 'case', 'c-1', 'owner');
    await relation('acme', 'alice', 'case', 'c-1', 'member');
    await relation('acme', 'alice', 'case', 'c-2', 'viewer');
    await relation('acme', 'bob', 'case', 'c-1', 'viewer');
    await relation('globex', 'alice', 'case', 'c-1', 'viewer');

    await sql(
      `INSERT INTO "authz"."feature_definition" ("code", "description", "default_enabled")
       VALUES ('tickets', 'Tickets', true), ('chat', 'Chat', false), ('workflow', 'Workflow', true)`,
    );
    await sql(
      `INSERT INTO "authz"."feature_override" ("tenant_id", "feature_code", "enabled", "updated_by")
       VALUES ('acme', 'tickets', false, 'admin'), ('acme', 'chat', true, 'admin')`,
    );

    await abacRule('deny-secret', 'acme', {
      name: 'No secret invoices',
      priority: 10,
      verdict: AbacVerdict.Deny,
      conditions: [{ field: AbacField.ResourceSensitivity, operator: AbacOperator.Equals, value: 'secret' }],
      actions: [AuthorizationAction.View, AuthorizationAction.Approve],
      modules: ['billing'],
      resourceTypes: ['invoice'],
    });
    await abacRule('allow-small', 'acme', {
      name: 'Small open amounts',
      priority: 5,
      verdict: AbacVerdict.Allow,
      conditions: [
        { field: AbacField.ResourceAmount, operator: AbacOperator.LessThan, value: 1000 },
        { field: AbacField.ResourceStatus, operator: AbacOperator.In, value: ['open', 'draft'] },
        { field: AbacField.ResourceOwner, operator: AbacOperator.Exists },
      ],
      obligations: ['log-access'],
    });
    await abacRule('disabled', 'acme', { name: 'Off', priority: 1, verdict: AbacVerdict.Deny, conditions: [], enabled: false });
    await abacRule('globex-rule', 'globex', { name: 'Globex', priority: 1, verdict: AbacVerdict.Deny, conditions: [] });
  });

  afterAll(async () => {
    if (readerDs?.isInitialized) await readerDs.destroy();
    if (admin?.isInitialized) await admin.destroy();
    await db?.drop();
  });

  describe('permissionsOfSubject', () => {
    it('reads the roles with data scope and codes, the unrevoked grants and the offices of a subject in one tenant', async () => {
      expect(await reader.permissionsOfSubject('acme', 'alice')).toEqual<SubjectPermissions>({
        roles: [
          { roleName: 'auditor', dataScope: 'tenant', permissions: ['billing.invoice.view'] },
          { roleName: 'clerk', dataScope: 'office', permissions: ['cases.case.update', 'cases.case.view'] },
          { roleName: 'empty', dataScope: 'own', permissions: [] },
        ],
        // Expired first (ordered by expiry); the revoked grant is absent; expiry keeps milliseconds.
        temporaryGrants: [
          { grantId: ids['expired']!, permissions: ['tickets.ticket.view'], expiresAt: new Date(PAST) },
          { grantId: ids['active']!, permissions: ['billing.invoice.approve'], expiresAt: new Date(FUTURE), dataScope: 'own' },
        ],
        // Only grants alice gives (as delegator), not the one carol gives to alice.
        delegatedGrants: [
          { grantId: ids['delegation-expired']!, actor: 'intern', permissions: ['cases.case.view'], expiresAt: new Date(PAST) },
          { grantId: ids['delegation']!, actor: 'assistant', permissions: ['cases.case.view', 'billing.invoice.view'], expiresAt: new Date(LATER) },
        ],
        officeIds: ['o-1', 'o-2'],
      });
    });

    it('keeps tenants apart: the same subject and role name in another tenant give other facts', async () => {
      expect(await reader.permissionsOfSubject('globex', 'alice')).toEqual({
        roles: [{ roleName: 'clerk', dataScope: 'tenant', permissions: ['tickets.ticket.view'] }],
        temporaryGrants: [{ grantId: ids['globex'], permissions: ['cases.case.view'], expiresAt: new Date(FUTURE) }],
        delegatedGrants: [],
        officeIds: ['o-9'],
      });
      expect(await reader.permissionsOfSubject('acme', 'bob')).toEqual({
        roles: [{ roleName: 'auditor', dataScope: 'tenant', permissions: ['billing.invoice.view'] }],
        temporaryGrants: [],
        delegatedGrants: [],
        officeIds: [],
      });
      const nothing = { roles: [], temporaryGrants: [], delegatedGrants: [], officeIds: [] };
      expect(await reader.permissionsOfSubject('acme', 'nobody')).toEqual(nothing);
      expect(await reader.permissionsOfSubject('initech', 'alice')).toEqual(nothing);
    });

    it('sees a revocation, a role rename and a role deletion at the next read', async () => {
      const { id } = await sqlOne<{ id: string }>(`SELECT "id" FROM "authz"."role" WHERE "tenant_id" = 'acme' AND "name" = 'empty'`);
      await sql(`UPDATE "authz"."role" SET "name" = 'empty-renamed' WHERE "id" = $1`, [id]);
      expect((await reader.permissionsOfSubject('acme', 'alice')).roles.map((r) => r.roleName)).toEqual(['auditor', 'clerk', 'empty-renamed']);
      await sql(`DELETE FROM "authz"."role" WHERE "id" = $1`, [id]);
      expect((await reader.permissionsOfSubject('acme', 'alice')).roles.map((r) => r.roleName)).toEqual(['auditor', 'clerk']);

      await sql(`UPDATE "authz"."temporary_grant" SET "revoked_at" = now() WHERE "id" = $1`, [ids['active']]);
      await sql(`UPDATE "authz"."delegated_grant" SET "revoked_at" = now() WHERE "id" = $1`, [ids['delegation']]);
      const after = await reader.permissionsOfSubject('acme', 'alice');
      expect(after.temporaryGrants.map((g) => g.grantId)).toEqual([ids['expired']]);
      expect(after.delegatedGrants.map((g) => g.grantId)).toEqual([ids['delegation-expired']]);

      await sql(`UPDATE "authz"."temporary_grant" SET "revoked_at" = NULL WHERE "id" = $1`, [ids['active']]);
      await sql(`UPDATE "authz"."delegated_grant" SET "revoked_at" = NULL WHERE "id" = $1`, [ids['delegation']]);
    });

    it('is a single SQL round trip, like every other method', async () => {
      const before = counter.count;
      await reader.permissionsOfSubject('acme', 'alice');
      expect(counter.count - before).toBe(1);
      await reader.abacRules('acme');
      await reader.relations('acme', 'alice', 'case', 'c-1');
      await reader.featureEnabled('acme', 'tickets');
      expect(counter.count - before).toBe(4);
    });
  });

  describe('abacRules', () => {
    it('maps the enabled rules of the tenant to the core model, integer enumerations intact, in priority order', async () => {
      expect(await reader.abacRules('acme')).toEqual([
        {
          id: ids['allow-small'],
          name: 'Small open amounts',
          priority: 5,
          verdict: AbacVerdict.Allow,
          conditions: [
            { field: AbacField.ResourceAmount, operator: AbacOperator.LessThan, value: 1000 },
            { field: AbacField.ResourceStatus, operator: AbacOperator.In, value: ['open', 'draft'] },
            { field: AbacField.ResourceOwner, operator: AbacOperator.Exists },
          ],
          obligations: ['log-access'],
        },
        {
          id: ids['deny-secret'],
          name: 'No secret invoices',
          priority: 10,
          verdict: AbacVerdict.Deny,
          conditions: [{ field: AbacField.ResourceSensitivity, operator: AbacOperator.Equals, value: 'secret' }],
          actions: [AuthorizationAction.View, AuthorizationAction.Approve],
          modules: ['billing'],
          resourceTypes: ['invoice'],
        },
      ]);
      expect(await reader.abacRules('globex')).toEqual([{ id: ids['globex-rule'], name: 'Globex', priority: 1, verdict: AbacVerdict.Deny, conditions: [] }]);
      expect(await reader.abacRules('initech')).toEqual([]);
    });

    it('stores verdict and condition field/operator as integers', async () => {
      const [row] = await sql(
        `SELECT pg_typeof("verdict")::text AS "verdictType", "verdict",
                jsonb_typeof("conditions" -> 0 -> 'field') AS "fieldType", jsonb_typeof("conditions" -> 0 -> 'operator') AS "operatorType"
           FROM "authz"."abac_rule" WHERE "id" = $1`,
        [ids['deny-secret']],
      );
      expect(row).toEqual({ verdictType: 'smallint', verdict: 2, fieldType: 'number', operatorType: 'number' });
    });
  });

  describe('relations', () => {
    it('returns the relations of the subject to exactly that resource instance in that tenant', async () => {
      expect(await reader.relations('acme', 'alice', 'case', 'c-1')).toEqual([
        { subject: 'alice', resourceType: 'case', resourceId: 'c-1', relation: 'member' },
        { subject: 'alice', resourceType: 'case', resourceId: 'c-1', relation: 'owner' },
      ]);
      expect(await reader.relations('globex', 'alice', 'case', 'c-1')).toEqual([
        { subject: 'alice', resourceType: 'case', resourceId: 'c-1', relation: 'viewer' },
      ]);
      expect(await reader.relations('acme', 'alice', 'client', 'c-1')).toEqual([]);
      expect(await reader.relations('acme', 'carol', 'case', 'c-1')).toEqual([]);
    });

    it('applies a share with a role to every holder of that role in the tenant, answered for the asking subject', async () => {
      await relation('acme', 'clerk', 'case', 'c-3', 'viewer', 'role'); // alice holds clerk
      await relation('acme', 'auditor', 'case', 'c-1', 'member', 'role'); // alice and bob hold auditor
      await relation('acme', 'auditor', 'case', 'c-1', 'viewer', 'role');
      await relation('globex', 'auditor', 'case', 'c-3', 'owner', 'role'); // no auditor in globex
      await relation('acme', 'unbound', 'case', 'c-3', 'owner', 'role'); // a role nobody holds
      await relation('acme', 'carol', 'case', 'c-3', 'owner', 'role'); // a role named like a user: not carol's
      await relation('acme', 'clerk', 'case', 'c-5', 'owner'); // a user named like a role: not the clerks'
      try {
        expect(await reader.relations('acme', 'alice', 'case', 'c-3')).toEqual([
          { subject: 'alice', resourceType: 'case', resourceId: 'c-3', relation: 'viewer' },
        ]);
        // Her own member and the role's member are one relation; the role's viewer is added.
        expect(await reader.relations('acme', 'alice', 'case', 'c-1')).toEqual([
          { subject: 'alice', resourceType: 'case', resourceId: 'c-1', relation: 'member' },
          { subject: 'alice', resourceType: 'case', resourceId: 'c-1', relation: 'owner' },
          { subject: 'alice', resourceType: 'case', resourceId: 'c-1', relation: 'viewer' },
        ]);
        expect(await reader.relations('acme', 'bob', 'case', 'c-1')).toEqual([
          { subject: 'bob', resourceType: 'case', resourceId: 'c-1', relation: 'member' },
          { subject: 'bob', resourceType: 'case', resourceId: 'c-1', relation: 'viewer' },
        ]);
        expect(await reader.relations('acme', 'bob', 'case', 'c-3')).toEqual([]);
        expect(await reader.relations('acme', 'carol', 'case', 'c-3')).toEqual([]);
        expect(await reader.relations('acme', 'alice', 'case', 'c-5')).toEqual([]);
        // globex: alice holds clerk there, not auditor; the acme clerk share does not cross over.
        expect(await reader.relations('globex', 'alice', 'case', 'c-3')).toEqual([]);

        // A binding made or removed is seen at the next read.
        const { id: unbound } = await sqlOne<{ id: string }>(`SELECT "id" FROM "authz"."role" WHERE "tenant_id" = 'acme' AND "name" = 'unbound'`);
        await bind('acme', 'carol', unbound, 'unbound');
        expect((await reader.relations('acme', 'carol', 'case', 'c-3')).map((r) => r.relation)).toEqual(['owner']);
        await sql(`DELETE FROM "authz"."user_role" WHERE "tenant_id" = 'acme' AND "subject" = 'carol'`);
        expect(await reader.relations('acme', 'carol', 'case', 'c-3')).toEqual([]);
      } finally {
        await sql(`DELETE FROM "authz"."resource_relation" WHERE "subject_kind" = 'role' OR "resource_id" = 'c-5'`);
      }
    });
  });

  describe('featureEnabled', () => {
    it.each([
      ['acme', 'tickets', false, 'override disables a default-on feature'],
      ['globex', 'tickets', true, 'no override: the global default'],
      ['acme', 'chat', true, 'override enables a default-off feature'],
      ['globex', 'chat', false, 'no override: the global default'],
      ['acme', 'workflow', true, 'no override: the global default'],
      ['acme', 'reporting', undefined, 'not defined'],
    ] as [string, string, boolean | undefined, string][])('%s / %s → %s (%s)', async (tenantId, code, expected) => {
      expect(await reader.featureEnabled(tenantId, code)).toBe(expected);
    });
  });

  describe('tenantSuspended', () => {
    it('is false without a row and for an active row, true for a suspended one', async () => {
      expect(await reader.tenantSuspended('acme')).toBe(false);
      await sql(`INSERT INTO "authz"."tenant_status" ("tenant_id", "status", "version", "updated_by") VALUES ('globex', 'suspended', 1, 'ops')`);
      try {
        expect(await reader.tenantSuspended('globex')).toBe(true);
        await sql(`UPDATE "authz"."tenant_status" SET "status" = 'active', "version" = 2 WHERE "tenant_id" = 'globex'`);
        expect(await reader.tenantSuspended('globex')).toBe(false);
      } finally {
        await sql(`DELETE FROM "authz"."tenant_status"`);
      }
    });

    it('refuses to record the platform tenant as suspended (it would lock out the operators)', async () => {
      await expect(
        sql(`INSERT INTO "authz"."tenant_status" ("tenant_id", "status", "version", "updated_by") VALUES ('default', 'suspended', 1, 'ops')`),
      ).rejects.toThrow(/ck_tenant_status_platform_active/);
    });
  });

  it('feeds the decision core: RBAC permits with the role data scope, ABAC denies by an integer-coded rule', async () => {
    const engine = new DecisionEngine({ facts: reader });
    const alice: TrustedCaller = { kind: 'user', subject: 'alice', tenantId: 'acme', scopes: [], claimsDigest: 'd-alice' };
    const view = (sensitivity: string) =>
      validateDecisionRequest({ caller: alice, action: AuthorizationAction.View, resource: { module: 'billing', resourceType: 'invoice', sensitivity } });

    const permitted = await engine.decide(view('public'));
    expect(permitted).toMatchObject({ outcome: 'Permit', dataScope: { kind: 'tenant', tenantId: 'acme' } });
    const denied = await engine.decide(view('secret'));
    expect(denied.outcome).toBe('Deny');
    expect(denied.evaluations.find((e) => e.evaluator === 'ABAC')).toMatchObject({ verdict: 'Deny' });

    const cases = await engine.decide(
      validateDecisionRequest({ caller: alice, action: AuthorizationAction.Update, resource: { module: 'cases', resourceType: 'case' } }),
    );
    expect(cases).toMatchObject({ outcome: 'Permit', dataScope: { kind: 'office', tenantId: 'acme', officeIds: ['o-1', 'o-2'] } });
  });

  // Last: it takes tables away and puts them back.
  it('rejects when a store cannot be read, so the evaluators fail closed', async () => {
    const cases: [string, () => Promise<unknown>][] = [
      ['temporary_grant', () => reader.permissionsOfSubject('acme', 'alice')],
      ['abac_rule', () => reader.abacRules('acme')],
      ['resource_relation', () => reader.relations('acme', 'alice', 'case', 'c-1')],
      ['feature_override', () => reader.featureEnabled('acme', 'tickets')],
      ['tenant_status', () => reader.tenantSuspended('acme')],
    ];
    for (const [table, read] of cases) {
      await sql(`ALTER TABLE "authz"."${table}" RENAME TO "${table}_gone"`);
      try {
        await expect(read()).rejects.toThrow(`relation "authz.${table}" does not exist`);
      } finally {
        await sql(`ALTER TABLE "authz"."${table}_gone" RENAME TO "${table}"`);
      }
      await expect(read()).resolves.toBeDefined();
    }
  });
});
