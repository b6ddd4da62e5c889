import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { initializeServiceDataSource, serviceDataSourceOptions } from '@lp/platform/persistence';
import { createTestDatabase, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';
import { POLICY_READER_TEST_SCHEMA } from '@lp/service/authz-decision/testing';
import { policyManagementService } from '@lp/service/policy-management';

/**
 * authz-decision's reader spec builds the `authz` tables from a DDL copy (it may not import
 * policy-management); this spec, which may see both services, keeps the copy honest against
 * policy-management's migrations.
 */
/** The tables authz-decision reads (governance tables such as the change log are policy-management's alone). */
const POLICY_TABLES = [
  'abac_rule',
  'delegated_grant',
  'feature_definition',
  'feature_override',
  'permission',
  'resource_relation',
  'role',
  'role_permission',
  'subject_office',
  'temporary_grant',
  'tenant_status',
  'user_role',
];

const COLUMNS = `
  SELECT "table_name", "column_name", "data_type", "udt_name", "character_maximum_length", "is_nullable", "column_default"
    FROM information_schema.columns
   WHERE "table_schema" = 'authz' AND "table_name" = ANY($1)
   ORDER BY "table_name", "column_name"`;

const CONSTRAINTS = `
  SELECT t."relname" AS "table", c."conname", pg_get_constraintdef(c."oid") AS "definition"
    FROM pg_constraint c
    JOIN pg_class t ON t."oid" = c."conrelid"
    JOIN pg_namespace n ON n."oid" = t."relnamespace"
   WHERE n."nspname" = 'authz' AND t."relname" = ANY($1)
   ORDER BY 1, 2`;

const INDEXES = `
  SELECT "tablename", "indexname", "indexdef" FROM pg_indexes
   WHERE "schemaname" = 'authz' AND "tablename" = ANY($1)
   ORDER BY 1, 2`;

describeWithServers(['postgres'], 'the authz DDL copy authz-decision tests its reader against', () => {
  let migratedDb: TestDatabase;
  let fixtureDb: TestDatabase;
  let ds: DataSource;
  let fixture: DataSource;

  beforeAll(async () => {
    [migratedDb, fixtureDb] = await Promise.all([
      createTestDatabase(testServerUrls.postgres, testRunId('pm_policy_copy')),
      createTestDatabase(testServerUrls.postgres, testRunId('pm_fixture')),
    ]);
    ds = await initializeServiceDataSource(new DataSource(serviceDataSourceOptions({ url: migratedDb.url, ...policyManagementService.database, poolSize: 2 })));
    fixture = await new DataSource(serviceDataSourceOptions({ url: fixtureDb.url, schema: 'authz', entities: [], migrations: [], poolSize: 1 })).initialize();
    await fixture.query(readFileSync(POLICY_READER_TEST_SCHEMA, 'utf8'));
  });

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    if (fixture?.isInitialized) await fixture.destroy();
    await Promise.all([migratedDb?.drop(), fixtureDb?.drop()]);
  });

  it('covers exactly the policy tables', async () => {
    const rows: { table_name: string }[] = await fixture.query(`SELECT "table_name" FROM information_schema.tables WHERE "table_schema" = 'authz' ORDER BY 1`);
    expect(rows.map((r) => r.table_name)).toEqual(POLICY_TABLES);
  });

  it.each([
    ['columns', COLUMNS],
    ['constraints', CONSTRAINTS],
    ['indexes', INDEXES],
  ])('has the same %s as the migrated schema', async (_what, query) => {
    const migrated = await ds.query(query, [POLICY_TABLES]);
    expect(migrated.length).toBeGreaterThan(POLICY_TABLES.length);
    expect(await fixture.query(query, [POLICY_TABLES])).toEqual(migrated);
  });
});
