import { hostname } from 'node:os';
import { join } from 'node:path';
import { Logger, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConfigModule } from '@lp/platform/config';
import { InMemoryKeyValueCache, KeyValueCache, RevisionCounters } from '@lp/platform/cache';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { DecisionAuditQuery, DecisionAuditWriter } from '../audit';
import { announceFeatureEnabledVerdict, AuthzDecisionConfig, authzDecisionConfig } from '../authz-decision.config';
import { CachedRelationsReader, DecisionCache, PolicyInvalidation, RevisionStampedNearCache, ScopeFactsCache } from '../cache';
import { DecisionEngine } from '../decision';
import { SqlPolicyFactsReader } from '../policy-facts';
import { DecisionAuditRpcController } from './decision-audit.rpc-controller';
import { DecisionRpcController } from './decision.rpc-controller';
import { DecisionService } from './decision.service';
import { DecisionsController } from './decisions.controller';
import { PolicyInvalidationListener } from './policy-invalidation.listener';
import { PolicyInvalidationRpcController } from './policy-invalidation.rpc-controller';

const DECISION_ENTRIES = Symbol('DECISION_ENTRIES');

/** The decision runtime: engine over the read-only `authz` schema, cache, audit, RPC and HTTP. */
@Module({
  imports: [ConfigModule.forRoot(authzDecisionConfig)],
  controllers: [DecisionsController, DecisionRpcController, DecisionAuditRpcController, PolicyInvalidationRpcController],
  providers: [
    {
      provide: DecisionEngine,
      inject: [DataSource, DECISION_ENTRIES, RevisionCounters, authzDecisionConfig.token],
      useFactory: (ds: DataSource, cache: KeyValueCache, revisions: RevisionCounters, config: AuthzDecisionConfig) => {
        // Evaluations read relations through the ReBAC cache; a decision-cache hit recomputes its
        // DataScope through the DataScope cache. Each has its own revisions (spec §1, Cache behavior 4).
        const facts = new CachedRelationsReader(new SqlPolicyFactsReader(ds), cache, revisions, config.DECISION_CACHE_TTL_MS);
        announceFeatureEnabledVerdict(config, new Logger('DecisionEngine'));
        const scopeFacts = new ScopeFactsCache(facts, cache, revisions, config.DECISION_CACHE_TTL_MS);
        return new DecisionEngine({ facts, scopeFacts, featureEnabledVerdict: config.AUTHZ_FEATURE_ENABLED_VERDICT });
      },
    },
    {
      // Decision, DataScope and ReBAC entries: revision-stamped, so an in-process copy in front of
      // Redis is exact (see RevisionStampedNearCache). The embedded LRU needs no copy.
      provide: DECISION_ENTRIES,
      inject: [KeyValueCache],
      useFactory: (cache: KeyValueCache) => (cache instanceof InMemoryKeyValueCache ? cache : new RevisionStampedNearCache(cache)),
    },
    {
      provide: DecisionCache,
      inject: [DECISION_ENTRIES, RevisionCounters, authzDecisionConfig.token],
      useFactory: (cache: KeyValueCache, revisions: RevisionCounters, config: AuthzDecisionConfig) =>
        new DecisionCache(cache, revisions, { ttlMs: config.DECISION_CACHE_TTL_MS }),
    },
    { provide: PolicyInvalidation, inject: [RevisionCounters], useFactory: (revisions: RevisionCounters) => new PolicyInvalidation(revisions) },
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
    DecisionService,
    PolicyInvalidationListener,
  ],
})
export class DecisionsModule {}

