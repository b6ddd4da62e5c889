import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DecisionResult, ValidDecisionRequest } from '@lp/contracts';
import { decisionOutcomes } from '@lp/platform/observability';
import { AuditUnavailableError, DecisionAuditWriter } from '../audit';
import { RevisionCounters } from '@lp/platform/cache';
import { cachedDecisionResult, callerRevisionNames, DecisionCache, DecisionCacheLookup, readRevisionSnapshot } from '../cache';
import { DecisionEngine, DecisionExplanation, RevisionSnapshot } from '../engine';

/** Reason a decision failed closed because its audit record could not be accepted. */
export const AUDIT_UNAVAILABLE = 'AuditUnavailable';

/**
 * Answers `authz.decide`: the revision-stamped cache first (delegated callers never), the engine on
 * a miss, the DataScope recomputed on a hit (spec §1, Cache behavior 3), and an audit record for
 * every answer, hit or miss. When the audit backlog is past its bound the answer is a denial with
 * reason `AuditUnavailable`: a decision nobody can account for is not given.
 */
@Injectable()
export class DecisionService {
  private readonly logger = new Logger(DecisionService.name);

  constructor(
    private readonly engine: DecisionEngine,
    private readonly cache: DecisionCache,
    private readonly audit: DecisionAuditWriter,
    private readonly revisions: RevisionCounters,
  ) {}

  /** `valid` was checked where it entered (the RPC contract, the HTTP controller). */
  async decide(valid: ValidDecisionRequest): Promise<DecisionResult> {
    const started = performance.now();
    if (!this.audit.canAccept()) return this.auditUnavailable(valid);

    // Every counter this decision's caches consult, read in one round trip and passed down.
    const revisions = await readRevisionSnapshot(this.revisions, callerRevisionNames(valid.caller.tenantId, valid.caller.subject).all);
    const result = await this.decideWithCaches(valid, revisions);

    try {
      // Strict durability: the answer leaves only once its record is on disk.
      const durable = this.audit.record(valid, result, performance.now() - started);
      if (durable) await durable;
    } catch (error) {
      if (error instanceof AuditUnavailableError) return this.auditUnavailable(valid);
      throw error;
    }
    decisionOutcomes.inc({ outcome: result.outcome, cached: String(result.cached) });
    return result;
  }

  private async decideWithCaches(valid: ValidDecisionRequest, revisions: RevisionSnapshot | undefined): Promise<DecisionResult> {
    const lookup = await this.lookupOrMiss(valid, revisions);
    if (lookup.status === 'hit') {
      const dataScope = await this.engine.resolveDataScope(valid, lookup.decision.permitted, revisions);
      return cachedDecisionResult(lookup, { decisionId: randomUUID(), dataScope });
    }
    const fresh = await this.engine.decide(valid, { revisions });
    if (lookup.status === 'bypass') return fresh;
    const result = { ...fresh, revisions: lookup.revisions };
    await this.cache.store(valid, lookup, result, fresh.validUntil);
    return result;
  }

  /** An unreachable cache is a miss without revisions: deciding afresh is safe, and nothing is stored. */
  private async lookupOrMiss(request: ValidDecisionRequest, revisions: RevisionSnapshot | undefined): Promise<DecisionCacheLookup> {
    try {
      return await this.cache.lookup(request, revisions);
    } catch (error) {
      this.logger.warn(`decision cache unavailable, deciding without it: ${error instanceof Error ? error.message : String(error)}`);
      return { status: 'bypass' };
    }
  }

  /** Many requests in one message; results in request order. */
  decideBatch(requests: ValidDecisionRequest[]): Promise<DecisionResult[]> {
    return Promise.all(requests.map((r) => this.decide(r)));
  }

  /** A full trace, never cached. Audited like any decision. */
  async explain(request: ValidDecisionRequest): Promise<DecisionExplanation> {
    const started = performance.now();
    const explanation = await this.engine.explain(request);
    const durable = this.audit.record(explanation.request, explanation.decision, performance.now() - started);
    if (durable) await durable;
    return explanation;
  }

  private auditUnavailable(request: ValidDecisionRequest): DecisionResult {
    this.logger.error({ backlog: this.audit.backlog(), correlationId: request.correlationId }, 'audit backlog full: failing closed');
    decisionOutcomes.inc({ outcome: 'Deny', cached: 'false' });
    return {
      outcome: 'Deny',
      permitted: false,
      decisionId: randomUUID(),
      evaluations: [],
      obligations: [],
      dataScope: { kind: 'none', tenantId: request.caller.tenantId },
      cached: false,
      failure: AUDIT_UNAVAILABLE,
    };
  }
}
