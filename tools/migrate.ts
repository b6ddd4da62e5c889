/**
 * The deploy's one-shot migration step (`docker run IMAGE migrate`, the compose `migrate` service, the
 * Kubernetes `migrate` Job): brings every fleet service's schema up to date against DATABASE_URL, in
 * the fleet's start order, then exits (0 on success). It runs the same code each service runs when it
 * boots (`initializeServiceDataSource`): each service still migrates its own schema at start, which
 * finds nothing left to do after this step, so the rollout never has replicas racing to migrate.
 * Idempotent: TypeORM skips what each schema's `schema_migrations` table records.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { initializeServiceDataSource, serviceDataSourceOptions } from '@lp/platform/persistence';
import { platformConfig } from '@lp/platform/runtime';
import { fleetServices } from '@lp/fleet';

async function migrate(): Promise<void> {
  const config = platformConfig.load();
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required (the embedded database migrates when the process starts)');
  for (const service of fleetServices) {
    const dataSource = new DataSource(
      serviceDataSourceOptions({
        url: config.DATABASE_URL,
        schema: service.database.schema,
        entities: service.database.entities,
        migrations: service.database.migrations,
        poolSize: 1,
        applicationName: `${service.name}-migrate`,
      }),
    );
    try {
      await initializeServiceDataSource(dataSource);
      process.stdout.write(`migrated: ${service.name} (schema ${service.database.schema})\n`);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
    }
  }
}

migrate().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`migrate failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
