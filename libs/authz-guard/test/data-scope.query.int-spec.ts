import { DataScope } from '@lp/contracts';
import { createTestDatabase, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { DataSource } from 'typeorm';
import { applyDataScope } from '../src/lib/data-scope.query';

describeWithServers(['postgres'], 'applyDataScope on PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase(testServerUrls.postgres, testRunId('scope'));
    ds = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    await ds.query(`CREATE TABLE matter (id text PRIMARY KEY, tenant_id text NOT NULL, owner text, office text)`);
    await ds.query(`INSERT INTO matter VALUES
      ('a1','A','alice','paris'), ('a2','A','bob','paris'), ('a3','A','alice','lyon'),
      ('b1','B','alice','paris'), ('b2','B','bob','lyon')`);
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  async function ids(scope: DataScope, columns = { tenant: 'm.tenant_id', owner: 'm.owner', office: 'm.office', id: 'm.id' }) {
    const qb = ds.createQueryBuilder().select('m.id', 'id').from('matter', 'm').orderBy('m.id');
    const rows = await applyDataScope(qb, scope, columns).getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }

  it('tenant scope sees every row of its tenant and none of another', async () => {
    expect(await ids({ kind: 'tenant', tenantId: 'A' })).toEqual(['a1', 'a2', 'a3']);
  });

  it("own scope sees the subject's rows in the tenant only", async () => {
    expect(await ids({ kind: 'own', tenantId: 'A', subject: 'alice' })).toEqual(['a1', 'a3']);
  });

  it('office scope filters by office inside the tenant', async () => {
    expect(await ids({ kind: 'office', tenantId: 'B', officeIds: ['paris'] })).toEqual(['b1']);
  });

  it("instances scope never reaches another tenant's instance even when listed", async () => {
    expect(await ids({ kind: 'instances', tenantId: 'A', resourceType: 'matter', resourceIds: ['a2', 'b1'] })).toEqual(['a2']);
  });

  it('none, an empty list, or a scope the table cannot express match nothing (fail closed)', async () => {
    expect(await ids({ kind: 'none', tenantId: 'A' })).toEqual([]);
    expect(await ids({ kind: 'instances', tenantId: 'A', resourceType: 'matter', resourceIds: [] })).toEqual([]);
    expect(await ids({ kind: 'own', tenantId: 'A', subject: 'alice' }, { tenant: 'm.tenant_id' } as never)).toEqual([]);
  });
});
