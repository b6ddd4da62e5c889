import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PLATFORM_TENANT, SEEDED_ADMIN_SUBJECT } from '@lp/contracts';

/** The actor recorded as the creator of the seeded row. */
export const TENANT_SEED_ACTOR = 'operations:seed';

/**
 * Seeds the platform tenant's row (ARCHITECTURE.md: seeded rows of every service carry tenant id
 * `default`, and operations seeds that tenant). One INSERT … ON CONFLICT DO NOTHING: replicas
 * starting together leave one row, a restart changes nothing, and an operator's rename stays.
 * Its administrator is policy-management's seeded `admin`, already in place (its catalog seed), so
 * the row is born bootstrapped.
 */
@Injectable()
export class PlatformTenantSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger(PlatformTenantSeeder.name);

  constructor(private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    if (await this.seed()) this.logger.log(`platform tenant "${PLATFORM_TENANT}" seeded`);
  }

  /** True when this call wrote the row. */
  async seed(): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO "platform"."tenant" ("id", "name", "admin_subject", "bootstrapped_at", "created_by")
       VALUES ($1, 'Platform', $2, now(), $3) ON CONFLICT ("id") DO NOTHING RETURNING "id"`,
      [PLATFORM_TENANT, SEEDED_ADMIN_SUBJECT, TENANT_SEED_ACTOR],
    );
    return rows.length > 0;
  }
}
