import { Logger, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KeyValueCache, RevisionCounters } from '@lp/platform/cache';
import { DecisionAuditModule } from '../audit/decision-audit.module';
import { announceFeatureEnabledVerdict, AuthzDecisionConfig, authzDecisionConfig } from '../authz-decision.config';
import { CachedRelationsReader, ScopeFactsCache } from '../cache';
import { DECISION_ENTRIES, DecisionCacheModule } from '../cache/decision-cache.module';
import { DecisionEngine } from '../engine';
import { SqlPolicyFactsReader } from '../policy-facts';
import { DecisionRpcController } from './decision.rpc-controller';
import { DecisionService } from './decision.service';
import { DecisionsController } from './decisions.controller';
import { FeatureStatusRpcController } from './feature-status.rpc-controller';

/** Decisions: the engine over the read-only `authz` schema behind its caches, answered over RPC and HTTP. */
@Module({
  imports: [DecisionAuditModule, DecisionCacheModule],
  controllers: [DecisionsController, DecisionRpcController, FeatureStatusRpcController],
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
    DecisionService,
  ],
})
export class DecisionsModule {}
