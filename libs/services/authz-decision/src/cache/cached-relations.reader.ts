import { Logger } from '@nestjs/common';
import { KeyValueCache, RevisionCounters } from '@lp/platform/cache';
import { PolicyFactsReader, ResourceRelation, RevisionSnapshot } from '../engine';
import { rebacRevisionNames } from './decision-revision-keys';
import { revisionsFrom } from './revision-snapshot';

/**
 * The ReBAC cache (spec §1, Cache behavior 4): relation lookups cached under the tenant's ReBAC
 * revision, bumped by relation (sharing) changes and by role renames and deletions, and the
 * subject's ReBAC revision, bumped when the subject is assigned or loses a role (a role share
 * applies to every holder of the role). Permission-cache bumps (policy, subject, feature) never
 * reach it. The other facts pass straight through.
 * A failing relation store still rejects (the ReBAC evaluator fails closed); an unreachable cache
 * only costs a direct read.
 */
export class CachedRelationsReader implements PolicyFactsReader {
  private readonly logger = new Logger(CachedRelationsReader.name);

  constructor(
    private readonly facts: PolicyFactsReader,
    private readonly cache: KeyValueCache,
    private readonly revisions: RevisionCounters,
    private readonly ttlMs: number,
  ) {}

  permissionsOfSubject: PolicyFactsReader['permissionsOfSubject'] = (tenantId, subject) => this.facts.permissionsOfSubject(tenantId, subject);
  abacRules: PolicyFactsReader['abacRules'] = (tenantId) => this.facts.abacRules(tenantId);
  featureEnabled: PolicyFactsReader['featureEnabled'] = (tenantId, code) => this.facts.featureEnabled(tenantId, code);

  async relations(
    tenantId: string,
    subject: string,
    resourceType: string,
    resourceId: string,
    snapshot?: RevisionSnapshot,
  ): Promise<readonly ResourceRelation[]> {
    let key: string | undefined;
    try {
      const revisions = await revisionsFrom(this.revisions, rebacRevisionNames(tenantId, subject), snapshot);
      key = `rebac:${JSON.stringify([tenantId, subject, resourceType, resourceId, revisions])}`;
      const hit = await this.cache.get<ResourceRelation[]>(key);
      if (hit) return hit;
    } catch (error) {
      this.logger.warn(`ReBAC cache unavailable: ${error instanceof Error ? error.message : String(error)}`);
      key = undefined;
    }
    const relations = await this.facts.relations(tenantId, subject, resourceType, resourceId);
    if (key) await this.cache.set(key, relations, this.ttlMs).catch(() => undefined);
    return relations;
  }
}
