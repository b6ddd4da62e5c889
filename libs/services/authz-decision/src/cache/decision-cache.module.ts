import { Module } from '@nestjs/common';
import { InMemoryKeyValueCache, KeyValueCache, RevisionCounters } from '@lp/platform/cache';
import { AuthzDecisionConfig, authzDecisionConfig } from '../authz-decision.config';
import { DecisionCache } from './decision-cache';
import { PolicyInvalidation } from './policy-invalidation';
import { PolicyInvalidationListener } from './policy-invalidation.listener';
import { PolicyInvalidationRpcController } from './policy-invalidation.rpc-controller';
import { RevisionStampedNearCache } from './revision-stamped-near-cache';

/** Where decision, DataScope and ReBAC entries are kept (see `DecisionCacheModule`). */
export const DECISION_ENTRIES = Symbol('DECISION_ENTRIES');

/**
 * The decision caches and their invalidation: the revision counters bumped over RPC
 * (`authz.invalidate`, at once after a policy change commits) and by the `authorization.#` events
 * every instance consumes.
 */
@Module({
  controllers: [PolicyInvalidationRpcController],
  providers: [
    {
      // Decision, DataScope and ReBAC entries: revision-stamped, so an in-process copy in front of
      // Redis is exact (see RevisionStampedNearCache). The embedded LRU needs no copy.
      provide: DECISION_ENTRIES,
      inject: [KeyValueCache, RevisionCounters],
      useFactory: (cache: KeyValueCache, revisions: RevisionCounters) =>
        cache instanceof InMemoryKeyValueCache ? cache : new RevisionStampedNearCache(cache, { revisions }),
    },
    {
      provide: DecisionCache,
      inject: [DECISION_ENTRIES, RevisionCounters, authzDecisionConfig.token],
      useFactory: (cache: KeyValueCache, revisions: RevisionCounters, config: AuthzDecisionConfig) =>
        new DecisionCache(cache, revisions, { ttlMs: config.DECISION_CACHE_TTL_MS }),
    },
    { provide: PolicyInvalidation, inject: [RevisionCounters], useFactory: (revisions: RevisionCounters) => new PolicyInvalidation(revisions) },
    PolicyInvalidationListener,
  ],
  exports: [DECISION_ENTRIES, DecisionCache],
})
export class DecisionCacheModule {}
