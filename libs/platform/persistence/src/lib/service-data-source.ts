import { DataSource, DataSourceOptions, EntityManager, MixedList } from 'typeorm';

export interface ServiceDatabaseOptions {
  /** Connection URL: PostgreSQL in production, the embedded PGlite socket otherwise. */
  url: string;
  /** The schema this service owns; entities without an explicit schema live here. */
  schema: string;
  // TypeORM's own element types: entity classes and migration classes.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function>;
  poolSize?: number;
  applicationName?: string;
  /** Log SQL (development only). */
  logging?: boolean;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** One DataSource per service, in its own schema, schema changes only through migrations. */
export function serviceDataSourceOptions(options: ServiceDatabaseOptions): DataSourceOptions {
  if (!SCHEMA_NAME.test(options.schema)) throw new Error(`Invalid schema name "${options.schema}"`);
  return {
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: options.logging ?? false,
    applicationName: options.applicationName,
    extra: { max: options.poolSize ?? 10, connectionTimeoutMillis: 5_000 },
  };
}

/**
 * Connects and brings the schema up to date. The schema is created first because TypeORM keeps the
 * migrations table inside it.
 */
export async function initializeServiceDataSource(dataSource: DataSource): Promise<DataSource> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  const schema = (dataSource.options as { schema?: string }).schema;
  if (schema) await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}

/**
 * Runs `work` in one transaction. Every query inside must go through the given manager: on PGlite a
 * second connection would wait for this transaction forever, and on PostgreSQL it would read
 * outside it (ARCHITECTURE.md, Runtime profiles).
 */
export function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction(work);
}
