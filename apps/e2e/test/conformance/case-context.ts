import { createHash } from 'node:crypto';
import type { DecisionRequest, TrustedCaller } from '@lp/contracts';
import {
  ConformanceCase,
  ConformanceExpectation,
  ConformanceFile,
  ConformanceRequest,
  expectationUnder,
  factsOf,
  nowOf,
  PolicyFactsChange,
  PolicyFactsSnapshot,
} from './corpus';

/*
 * How one corpus case is translated for the real service. Translation only renames; it never
 * changes what a case means:
 *
 * - Tenants: every tenant id of a case (`t1`, `t2`, …) becomes `cf-{hash of file + case name}-{id}`,
 *   so no case sees another case's rows or cache entries. The empty tenant of a validation case
 *   stays empty.
 * - Ids: grant and ABAC rule ids are `uuid` columns in `authz`, so each corpus id becomes a uuid
 *   unique to the case. The uuids sort like the corpus ids (a rank prefix), because the core
 *   breaks ties by id (ABAC rules of equal priority, grants of equal expiry). Expected reasons that
 *   name an id are rewritten to name its uuid.
 * - Instants: the service runs on the system clock, so case time is mapped onto real time by a
 *   strictly increasing map (`corpusTimeMap`); only the order of instants matters to the core
 *   (`now < expiresAt`), and a strictly increasing map keeps it. Expected reasons and `validUntil`
 *   are rewritten with the same map.
 */

const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

/** Real time between two consecutive instants inside the range of a case's clock steps. */
export const CLOCK_STEP_MS = 1_000;
/** Extra distance of instants after the case's last clock step: no decision can reach them. */
export const FUTURE_MARGIN_MS = 60_000;

export interface TimeMap {
  /** Real epoch milliseconds of a corpus instant. */
  realMs(iso: string): number;
}

/**
 * A strictly increasing map from case time to real time, anchored so that the case's first clock
 * instant (`now`) is `baseMs`:
 *
 * - before the first clock instant: the same distance before `baseMs` (an expired grant stays
 *   expired by as much);
 * - from the first to the last clock instant (only sequences with `clock` steps have more than
 *   one): every distinct instant one `CLOCK_STEP_MS` after the previous one, so a grant expiring
 *   1 ms after a clock step still expires a whole step after the decision made at that step, and
 *   reaching the next clock step means waiting one step, not the corpus's minutes;
 * - after the last clock instant: the same distance plus `FUTURE_MARGIN_MS`.
 */
export function corpusTimeMap(instants: readonly string[], clocks: readonly string[], baseMs: number): TimeMap {
  const clockMs = clocks.map((c) => Date.parse(c));
  const first = Math.min(...clockMs);
  const last = Math.max(...clockMs);
  const inside = [...new Set([...instants.map((i) => Date.parse(i)), ...clockMs])].filter((x) => x >= first && x <= last).sort((a, b) => a - b);
  const lastReal = baseMs + (inside.length - 1) * CLOCK_STEP_MS;
  return {
    realMs(iso: string): number {
      const x = Date.parse(iso);
      if (Number.isNaN(x)) throw new Error(`not an instant: ${iso}`);
      if (x < first) return baseMs - (first - x);
      if (x > last) return lastReal + FUTURE_MARGIN_MS + (x - last);
      const rank = inside.indexOf(x);
      if (rank < 0) throw new Error(`instant ${iso} was not collected from the case`);
      return baseMs + rank * CLOCK_STEP_MS;
    },
  };
}

/** Real instants written as they are (tests that build their facts on the real clock). */
export const realTime: TimeMap = { realMs: (iso) => Date.parse(iso) };

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class CaseContext {
  private readonly hash: string;
  private readonly ids = new Map<string, string>();
  private readonly idPattern: RegExp | undefined;

  /**
   * @param key what makes the case unique (file and case name)
   * @param corpusIds grant and rule ids of the case
   */
  constructor(
    readonly key: string,
    corpusIds: Iterable<string>,
    readonly time: TimeMap,
    private readonly defaultTenant = 't1',
  ) {
    this.hash = sha(key);
    const sorted = [...new Set(corpusIds)].sort();
    sorted.forEach((id, rank) => {
      const tail = sha(`${key}\u0000${id}`).slice(0, 12);
      this.ids.set(id, `${rank.toString(16).padStart(8, '0')}-c0de-4000-8000-${tail}`);
    });
    // Longest first, whole ids only: `dg-1` must not rewrite the start of `dg-10`.
    const alternatives = [...sorted].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.idPattern = alternatives.length > 0 ? new RegExp(`(?<![\\w-])(?:${alternatives.join('|')})(?![\\w-])`, 'g') : undefined;
  }

  tenant(corpusTenant: string): string {
    return corpusTenant === '' ? '' : `cf-${this.hash.slice(0, 12)}-${corpusTenant}`;
  }

  id(corpusId: string): string {
    return this.ids.get(corpusId) ?? corpusId;
  }

  /** A corpus instant as a real ISO instant. */
  instant(iso: string): string {
    return new Date(this.time.realMs(iso)).toISOString();
  }

  /** A reason (or substring) with corpus ids and instants rewritten. */
  text(text: string): string {
    const withIds = this.idPattern ? text.replace(this.idPattern, (id) => this.id(id)) : text;
    return withIds.replace(ISO_INSTANT, (iso) => this.instant(iso));
  }

  /** The request as the in-memory runner builds it (tenant of the file, no scopes, a digest), translated. */
  request(spec: ConformanceRequest): DecisionRequest {
    const filled = { tenantId: this.defaultTenant, scopes: [], claimsDigest: 'conformance', ...spec.caller } as TrustedCaller;
    const caller: TrustedCaller = {
      ...filled,
      tenantId: typeof filled.tenantId === 'string' ? this.tenant(filled.tenantId) : filled.tenantId,
      ...(filled.grantId !== undefined ? { grantId: this.id(filled.grantId) } : {}),
    };
    return { caller, action: spec.action, resource: spec.resource } as unknown as DecisionRequest;
  }

  expectation(expected: ConformanceExpectation): ConformanceExpectation {
    // The service runs with the default AUTHZ_FEATURE_ENABLED_VERDICT (neutral).
    const translated: ConformanceExpectation = expectationUnder(expected, 'neutral');
    if (expected.evaluators) {
      translated.evaluators = Object.fromEntries(
        Object.entries(expected.evaluators).map(([name, want]) => [name, typeof want === 'string' ? want : { ...want, reason: this.text(want.reason) }]),
      );
    }
    if (expected.dataScope) translated.dataScope = { ...expected.dataScope, tenantId: this.tenant(expected.dataScope.tenantId) };
    if (typeof expected.validUntil === 'string') translated.validUntil = this.instant(expected.validUntil);
    return translated;
  }
}

/** Every ISO instant written anywhere in the case (facts, steps, requests, expectations). */
function instantsOf(value: unknown): string[] {
  return JSON.stringify(value).match(ISO_INSTANT) ?? [];
}

function changesOf(c: ConformanceCase): PolicyFactsChange[] {
  return (c.sequence ?? []).flatMap((step) => ('change' in step ? [step.change] : []));
}

function requestsOf(c: ConformanceCase): ConformanceRequest[] {
  return [...(c.request ? [c.request] : []), ...(c.sequence ?? []).flatMap((step) => ('decide' in step ? [step.decide] : []))];
}

function idsOf(facts: PolicyFactsSnapshot, changes: PolicyFactsChange[], requests: ConformanceRequest[]): string[] {
  const ids: string[] = [];
  for (const t of Object.values(facts.tenants ?? {})) {
    for (const grants of Object.values(t.temporaryGrants ?? {})) ids.push(...grants.map((g) => g.grantId));
    for (const grants of Object.values(t.delegatedGrants ?? {})) ids.push(...grants.map((g) => g.grantId));
    ids.push(...(t.abacRules ?? []).map((r) => r.id));
  }
  for (const change of changes) {
    if (change.op === 'grantTemporary' || change.op === 'delegate') ids.push(change.grant.grantId);
    if (change.op === 'revokeTemporary' || change.op === 'revokeDelegation') ids.push(change.grantId);
    if (change.op === 'putAbacRule') ids.push(change.rule.id);
    if (change.op === 'deleteAbacRule') ids.push(change.ruleId);
  }
  for (const request of requests) if (request.caller.grantId !== undefined) ids.push(request.caller.grantId);
  return ids;
}

/** The clock instants of a case in order: `now`, then each `clock` step. */
export function clocksOf(c: ConformanceCase, file: ConformanceFile): string[] {
  return [nowOf(c, file), ...(c.sequence ?? []).flatMap((step) => ('clock' in step ? [step.clock] : []))];
}

/** The context of one corpus case, its time anchored at `baseMs` (the real instant of the case's `now`). */
export function contextForCase(fileName: string, file: ConformanceFile, c: ConformanceCase, baseMs: number): CaseContext {
  const facts = factsOf(c, file);
  const time = corpusTimeMap(instantsOf({ facts, c }), clocksOf(c, file), baseMs);
  return new CaseContext(`${fileName}\u0000${c.name}`, idsOf(facts, changesOf(c), requestsOf(c)), time, file.tenantId ?? 't1');
}
