import { hostname } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { AuthzDecisionConfig, authzDecisionConfig } from '../authz-decision.config';
import { DecisionAuditQuery } from './decision-audit-query';
import { DecisionAuditRetention } from './decision-audit-retention';
import { DecisionAuditWriter } from './decision-audit-writer';
import { DecisionAuditRpcController } from './decision-audit.rpc-controller';

/** The decision audit: its writer (every decision's record), its query over RPC, its retention. */
@Module({
  controllers: [DecisionAuditRpcController],
  providers: [
    {
      provide: DecisionAuditWriter,
      inject: [DataSource, authzDecisionConfig.token, platformConfig.token],
      useFactory: (ds: DataSource, config: AuthzDecisionConfig, platform: PlatformConfig) =>
        new DecisionAuditWriter(ds, {
          durability: config.AUDIT_DURABILITY ?? (platform.NODE_ENV === 'production' ? 'strict' : 'batched'),
          batchSize: config.AUDIT_BATCH_SIZE,
          flushIntervalMs: config.AUDIT_FLUSH_INTERVAL_MS,
          maxBacklog: config.AUDIT_BACKLOG_LIMIT,
          // Per host by default: stable across restarts, so the next start replays it.
          spoolDirectory: config.AUDIT_SPOOL_DIR ?? join(platform.DATA_DIR, 'audit-spool', hostname()),
        }),
    },
    { provide: DecisionAuditQuery, inject: [DataSource], useFactory: (ds: DataSource) => new DecisionAuditQuery(ds) },
    DecisionAuditRetention,
  ],
  exports: [DecisionAuditWriter],
})
export class DecisionAuditModule {}
