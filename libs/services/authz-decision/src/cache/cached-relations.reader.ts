import { Logger } from '@nestjs/common';
import { KeyValueCache, RevisionCounters } from '@lp/platform/cache';
import { PolicyFactsReader, ResourceRelation, RevisionSnapshot } from '../engine';
import { DecisionRevisionKeys, rebacRevisionNames } from './decision-revision-keys';
import { revisionsFrom } from './revision-snapshot';

/**
 * The ReBAC cache (spec §1, Cache behavior 4), and the tenant-status cache. Relation lookups are cached under the tenant's ReBAC
 * revision, bumped by relation (sharing) changes and by role renames and deletions, and the
 * subject's ReBAC revision, bumped when the subject is assigned or loses a role (a role share
 * applies to every holder of the role). Permission-cache bumps (policy, subject, feature) never
 * reach it. The tenant's status (suspended or not) is cached under the tenant's policy revision,
 * which `authorization.tenant.status-changed` bumps: a decision-cache miss costs no status query
 * while the tenant's policy stands still. The other facts pass straight through.
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

  async tenantSuspended(tenantId: string, snapshot?: RevisionSnapshot): Promise<boolean> {
    const read = (): Promise<boolean> => (this.facts.tenantSuspended ? this.facts.tenantSuspended(tenantId) : Promise.resolve(false));
    let key: string | undefined;
    try {
      const {
        epoch,
        values: [revision],
      } = await revisionsFrom(this.revisions, [DecisionRevisionKeys.tenantPolicy(tenantId)], snapshot);
      key = `tenant-status:${JSON.stringify([tenantId, epoch, revision])}`;
      const hit = await this.cache.get<{ suspended: boolean }>(key);
      if (hit) return hit.suspended;
    } catch (error) {
      this.logger.warn(`tenant-status cache unavailable: ${error instanceof Error ? error.message : String(error)}`);
      key = undefined;
    }
    const suspended = await read();
    // Wrapped: a cache may not tell a stored `false` from a miss.
    if (key) await this.cache.set(key, { suspended }, this.ttlMs).catch(() => undefined);
    return suspended;
  }

  async relations(
    tenantId: string,
    subject: string,
    resourceType: string,
    resourceId: string,
    snapshot?: RevisionSnapshot,
  ): Promise<readonly ResourceRelation[]> {
    let key: string | undefined;
    try {
      const { epoch, values } = await revisionsFrom(this.revisions, rebacRevisionNames(tenantId, subject), snapshot);
      key = `rebac:${JSON.stringify([tenantId, subject, resourceType, resourceId, epoch, values])}`;
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
