import { MigrationInterface, QueryRunner } from 'typeorm';

/** Before the services' own first migrations, so their migrations may already write events. */
export const MESSAGING_TABLES_MIGRATION_TIMESTAMP = 1763600000000;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The migration creating `outbox_message` and `processed_event` in a service's schema. A factory,
 * because every service owns its schema and lists this migration among its own; the class name
 * ends with the timestamp TypeORM orders migrations by.
 */
export function createMessagingTablesMigration(schema: string, timestamp: number = MESSAGING_TABLES_MIGRATION_TIMESTAMP): new () => MigrationInterface {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  if (!Number.isInteger(timestamp) || String(timestamp).length !== 13) throw new Error(`Migration timestamp must have 13 digits, got ${timestamp}`);
  const name = `CreateMessagingTables${timestamp}`;
  const s = `"${schema}"`;

  const migration = class implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      await q.query(`
        CREATE TABLE ${s}."outbox_message" (
          "id" bigserial PRIMARY KEY,
          "event_id" varchar(128) NOT NULL,
          "event_type" varchar(255) NOT NULL,
          "envelope" jsonb NOT NULL,
          "created_at" timestamptz NOT NULL DEFAULT now(),
          "sent_at" timestamptz,
          "attempts" integer NOT NULL DEFAULT 0,
          "last_error" text,
          "locked_until" timestamptz
        )`);
      await q.query(`CREATE UNIQUE INDEX "UQ_outbox_message_event_id" ON ${s}."outbox_message" ("event_id")`);
      // The relay's poll reads only unsent rows in id order; the purge only old sent ones.
      await q.query(`CREATE INDEX "IX_outbox_message_unsent" ON ${s}."outbox_message" ("id") WHERE "sent_at" IS NULL`);
      await q.query(`CREATE INDEX "IX_outbox_message_sent_at" ON ${s}."outbox_message" ("sent_at") WHERE "sent_at" IS NOT NULL`);
      await q.query(`
        CREATE TABLE ${s}."processed_event" (
          "consumer" varchar(200) NOT NULL,
          "event_id" varchar(128) NOT NULL,
          "processed_at" timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY ("consumer", "event_id")
        )`);
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`DROP TABLE ${s}."processed_event"`);
      await q.query(`DROP TABLE ${s}."outbox_message"`);
    }
  };
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}

/** After every service's first migrations: a deployed schema gets it as its newest. */
export const PROCESSED_EVENT_TIME_INDEX_TIMESTAMP = 1763800000000;

/**
 * The index the retention purge of `processed_event` reads by (`processed_at`): without it every
 * purge batch would scan the table. A factory for the same reason as the tables' migration.
 */
export function createProcessedEventTimeIndexMigration(schema: string, timestamp: number = PROCESSED_EVENT_TIME_INDEX_TIMESTAMP): new () => MigrationInterface {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  const name = `ProcessedEventTimeIndex${timestamp}`;
  const migration = class implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      await q.query(`CREATE INDEX "IX_processed_event_processed_at" ON "${schema}"."processed_event" ("processed_at")`);
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`DROP INDEX "${schema}"."IX_processed_event_processed_at"`);
    }
  };
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}

/** After every service's migrations so far: a deployed schema gets it as its newest. */
export const OUTBOX_TRACEPARENT_TIMESTAMP = 1765000000000;

/**
 * `outbox_message.traceparent`: the W3C Trace Context of the write that produced the event, which
 * the relay publishes with it (docs/operations/tracing.md). Nullable: rows written while tracing is
 * off, and every row written before this migration, carry none. A factory, as above.
 */
export function createOutboxTraceparentMigration(schema: string, timestamp: number = OUTBOX_TRACEPARENT_TIMESTAMP): new () => MigrationInterface {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  const name = `OutboxTraceparent${timestamp}`;
  const migration = class implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      await q.query(`ALTER TABLE "${schema}"."outbox_message" ADD COLUMN "traceparent" varchar(55)`);
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`ALTER TABLE "${schema}"."outbox_message" DROP COLUMN "traceparent"`);
    }
  };
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}

/**
 * Every migration of the messaging tables, for a service's migration list: a service writes
 * `...messagingMigrations(SCHEMA)` beside its own, so a new one reaches every service from here.
 * TypeORM runs them in the order of their timestamps, wherever they stand in the list.
 */
export function messagingMigrations(schema: string): Array<new () => MigrationInterface> {
  return [createMessagingTablesMigration(schema), createProcessedEventTimeIndexMigration(schema), createOutboxTraceparentMigration(schema)];
}
