/**
 * The decision cache in-process, without transport:
 * 1. the cost of a miss (lookup that misses + fresh engine evaluation + store) against a hit
 *    (lookup + DataScope recompute), over the in-memory adapters and over Redis;
 * 2. the memory of 100,000 cached decisions (25,000 with BENCH_QUICK=1): V8 heap of an
 *    `InMemoryKeyValueCache` filled through `DecisionCache.store`, and Redis `used_memory` for the
 *    same entries under a key prefix of this run (deleted at the end).
 *
 * The engine is wired as authz-decision wires it (decisions.module.ts): evaluations read relations
 * through `CachedRelationsReader`, a hit recomputes its DataScope through `ScopeFactsCache`, both
 * over the same adapters as the decision cache, with `InMemoryPolicyFacts` as the store behind them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Redis from 'ioredis';
import { AuthorizationAction, DecisionResult, validateDecisionRequest, ValidDecisionRequest } from '@lp/contracts';
import {
  InMemoryKeyValueCache,
  InMemoryRevisionCounters,
  KeyValueCache,
  RedisKeyValueCache,
  RedisRevisionCounters,
  RevisionCounters,
} from '@lp/platform/cache';
import { deleteRedisKeys } from '@lp/platform/testing';
import { formatTable, summarize } from './latency-stats';
import { CachedRelationsReader, DecisionCache, DecisionEngine, DecisionEngineResult, ScopeFactsCache, cachedDecisionResult } from '@lp/service/authz-decision';
import { InMemoryPolicyFacts } from '@lp/service/authz-decision/testing';

/** DECISION_CACHE_TTL_MS's default: the benchmark measures the service as configured out of the box. */
const TTL_MS = 60_000;

export interface DecisionCacheBenchOptions {
  quick: boolean;
  redisUrl?: string;
}

const out = (text: string) => process.stdout.write(`${text}\n`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// ---------------------------------------------------------------------------------------------
// policy and requests

const TENANT = 'acme';
const USERS = 1_000;
const ACTIONS = [AuthorizationAction.View, AuthorizationAction.Update, AuthorizationAction.Create, AuthorizationAction.Delete];

/** Two roles over 1,000 users: clerks view, update and create (tenant scope), assistants view (own rows); no one may delete. */
function policyFacts(): InMemoryPolicyFacts {
  const facts = new InMemoryPolicyFacts();
  facts.defineRole(TENANT, 'clerk', 'tenant', ['cases.case.view', 'cases.case.update', 'cases.case.create']);
  facts.defineRole(TENANT, 'assistant', 'own', ['cases.case.view']);
  for (let u = 0; u < USERS; u++) facts.bindRole(TENANT, `user-${u}`, u % 3 === 0 ? 'assistant' : 'clerk');
  return facts;
}

/** Distinct requests: every one a key of its own (resource id `prefix-i`). */
/** Checked up front, as the service checks a request where it enters: the paths below take valid requests. */
function requests(count: number, prefix: string): ValidDecisionRequest[] {
  return Array.from({ length: count }, (_, i) => {
    const subject = `user-${i % USERS}`;
    return validateDecisionRequest({
      caller: { kind: 'user', subject, tenantId: TENANT, scopes: [], claimsDigest: `digest-${subject}` },
      action: ACTIONS[i % ACTIONS.length],
      resource: { module: 'cases', resourceType: 'case', resourceId: `${prefix}-${i}` },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// counting ports (how many cache round trips a path makes)

class CountingCache extends KeyValueCache {
  calls = 0;
  constructor(readonly inner: KeyValueCache) {
    super();
  }
  get<T>(key: string) {
    this.calls++;
    return this.inner.get<T>(key);
  }
  set<T>(key: string, value: T, ttlMs: number) {
    this.calls++;
    return this.inner.set(key, value, ttlMs);
  }
  delete(key: string) {
    this.calls++;
    return this.inner.delete(key);
  }
  getMany<T>(keys: string[]) {
    this.calls++;
    return this.inner.getMany<T>(keys);
  }
  ping() {
    return this.inner.ping();
  }
  close() {
    return this.inner.close();
  }
}

class CountingRevisions extends RevisionCounters {
  calls = 0;
  constructor(readonly inner: RevisionCounters) {
    super();
  }
  read(names: string[]) {
    this.calls++;
    return this.inner.read(names);
  }
  bump(name: string) {
    this.calls++;
    return this.inner.bump(name);
  }
}

interface Wiring {
  engine: DecisionEngine;
  decisions: DecisionCache;
  cache: CountingCache;
  revisions: CountingRevisions;
}

/** As decisions.module.ts: ReBAC cache under the evaluators, DataScope cache for hits, one pair of adapters. */
function wire(facts: InMemoryPolicyFacts, cache: KeyValueCache, revisions: RevisionCounters): Wiring {
  const counted = { cache: new CountingCache(cache), revisions: new CountingRevisions(revisions) };
  const relations = new CachedRelationsReader(facts, counted.cache, counted.revisions, TTL_MS);
  const engine = new DecisionEngine({ facts: relations, scopeFacts: new ScopeFactsCache(relations, counted.cache, counted.revisions, TTL_MS) });
  return { engine, decisions: new DecisionCache(counted.cache, counted.revisions, { ttlMs: TTL_MS }), ...counted };
}

// ---------------------------------------------------------------------------------------------
// 1. miss vs hit

interface PathTimes {
  samples: number[];
  /** Summed per stage, ms. */
  stages: Record<string, number>;
  roundTrips: number;
}

const newTimes = (): PathTimes => ({ samples: [], stages: {}, roundTrips: 0 });
const ROUNDS = 10;

/** The miss path of `DecisionService.decide`: lookup (miss), engine, store. */
async function miss(w: Wiring, request: ValidDecisionRequest, times: PathTimes): Promise<void> {
  const calls = w.cache.calls + w.revisions.calls;
  const t0 = performance.now();
  const lookup = await w.decisions.lookup(request);
  const t1 = performance.now();
  if (lookup.status !== 'miss') throw new Error(`expected a miss, got ${lookup.status}`);
  const { validUntil, ...fresh } = await w.engine.decide(request);
  const t2 = performance.now();
  const stored = await w.decisions.store(request, lookup, { ...fresh, revisions: lookup.revisions }, validUntil);
  const t3 = performance.now();
  if (!stored) throw new Error('decision not stored');
  times.samples.push(t3 - t0);
  add(times, { 'lookup (miss)': t1 - t0, 'engine.decide': t2 - t1, store: t3 - t2 });
  times.roundTrips += w.cache.calls + w.revisions.calls - calls;
}

/** The hit path of `DecisionService.decide`: lookup (hit), DataScope recomputed, the answer built. */
async function hit(w: Wiring, request: ValidDecisionRequest, times: PathTimes): Promise<DecisionResult> {
  const calls = w.cache.calls + w.revisions.calls;
  const t0 = performance.now();
  const lookup = await w.decisions.lookup(request);
  const t1 = performance.now();
  if (lookup.status !== 'hit') throw new Error(`expected a hit, got ${lookup.status}`);
  const dataScope = await w.engine.resolveDataScope(request, lookup.decision.permitted);
  const result = cachedDecisionResult(lookup, { decisionId: randomUUID(), dataScope });
  const t2 = performance.now();
  times.samples.push(t2 - t0);
  add(times, { 'lookup (hit)': t1 - t0, 'resolveDataScope + answer': t2 - t1 });
  times.roundTrips += w.cache.calls + w.revisions.calls - calls;
  return result;
}

function add(times: PathTimes, stages: Record<string, number>): void {
  for (const [name, ms] of Object.entries(stages)) times.stages[name] = (times.stages[name] ?? 0) + ms;
}

async function missVsHit(label: string, w: Wiring, count: number, warmup: number): Promise<{ label: string; miss: PathTimes; hit: PathTimes; count: number }> {
  const id = randomBytes(3).toString('hex');
  const scratch = newTimes();
  for (const request of requests(warmup, `warm-${id}`)) {
    await miss(w, request, scratch);
    await hit(w, request, scratch);
  }
  const timed = requests(count, `case-${id}`);
  const missTimes = newTimes();
  const hitTimes = newTimes();
  // Alternating slices: a miss slice stores what the following hit slice reads.
  for (let round = 0; round < ROUNDS; round++) {
    const slice = timed.slice(Math.floor((count * round) / ROUNDS), Math.floor((count * (round + 1)) / ROUNDS));
    for (const request of slice) await miss(w, request, missTimes);
    for (const request of slice) await hit(w, request, hitTimes);
  }
  return { label, miss: missTimes, hit: hitTimes, count };
}

// ---------------------------------------------------------------------------------------------
// 2. memory

interface HeapSample {
  heapUsed: number;
  external: number;
}

function forcedGc(): { gc?: () => void; method: string } {
  const exposed = global.gc;
  if (typeof exposed === 'function') return { gc: () => void exposed(), method: 'global.gc() (node --expose-gc)' };
  try {
    // As the casbin bench: `npm run bench` starts node without --expose-gc; set the flag at runtime, read `gc` from a fresh context.
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    if (typeof gc === 'function') return { gc: gc as () => void, method: 'full GC (gc exposed at runtime via v8.setFlagsFromString)' };
  } catch {
    // fall through
  }
  return { method: 'NO forced GC (garbage included: upper bound)' };
}

function heapNow(gc?: () => void): HeapSample {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, external: m.external };
}

async function redisUsedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  const match = /^used_memory:(\d+)/m.exec(info);
  if (!match) throw new Error('INFO memory without used_memory');
  return Number(match[1]);
}

/** Decisions for `count` distinct requests, computed before any baseline so only the cache's copy is measured. */
async function decided(engine: DecisionEngine, list: ValidDecisionRequest[]): Promise<DecisionEngineResult[]> {
  const results: DecisionEngineResult[] = [];
  for (const request of list) results.push(await engine.decide(request));
  return results;
}

// ---------------------------------------------------------------------------------------------
// the suite

export async function benchDecisionCache(options: DecisionCacheBenchOptions): Promise<void> {
  const redisUrl = options.redisUrl || process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const count = options.quick ? 2_000 : 20_000;
  const warmup = options.quick ? 500 : 2_000;
  const entries = options.quick ? 25_000 : 100_000;
  const prefix = `bench_cache_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}:`;
  const facts = policyFacts();

  out(
    `\nDecision cache in-process: miss (lookup + engine.decide + store) vs hit (lookup + DataScope recompute) — ${count} distinct requests per adapter, sequential`,
  );
  const memoryRevisions = new InMemoryRevisionCounters();
  const inMemory = wire(facts, new InMemoryKeyValueCache({ maxEntries: 2 * (count + warmup) + 10_000 }), memoryRevisions);
  const redisCache = new RedisKeyValueCache({ url: redisUrl, keyPrefix: prefix });
  const redisRevisions = new RedisRevisionCounters({ url: redisUrl, keyPrefix: prefix });
  const admin = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const runs = [
      await missVsHit('in-memory (LRU + counters)', inMemory, count, warmup),
      await missVsHit('Redis (127.0.0.1)', wire(facts, redisCache, redisRevisions), count, warmup),
    ];
    const rows = runs.flatMap((r) =>
      (['miss', 'hit'] as const).map((path) => {
        const t = r[path];
        const s = summarize(
          t.samples,
          t.samples.reduce((a, b) => a + b, 0),
        );
        const mean = (ms: number) => `${((1000 * ms) / r.count).toFixed(1)}`;
        return {
          adapters: r.label,
          path,
          'p50 µs': (1000 * s.p50).toFixed(1),
          'p99 µs': (1000 * s.p99).toFixed(1),
          'mean µs': mean(t.samples.reduce((a, b) => a + b, 0)),
          'ops/s': Math.round(s.opsPerSecond),
          'cache round trips': (t.roundTrips / r.count).toFixed(1),
          'mean µs by stage': Object.entries(t.stages)
            .map(([name, ms]) => `${name} ${mean(ms)}`)
            .join(', '),
        };
      }),
    );
    out(formatTable(rows));
    for (const r of runs) {
      const p = (t: PathTimes) => summarize(t.samples, 1).p50;
      const mean = (t: PathTimes) => t.samples.reduce((a, b) => a + b, 0) / t.samples.length;
      out(`${r.label}: miss / hit = ${(p(r.miss) / p(r.hit)).toFixed(2)}x at p50, ${(mean(r.miss) / mean(r.hit)).toFixed(2)}x in mean`);
    }
    out(`cache round trips: KeyValueCache get/set/getMany and RevisionCounters read calls per decision (each one a Redis round trip with Redis).`);

    // ---- memory: in-process LRU ----
    const gc = forcedGc();
    const list = requests(entries, `mem-${randomBytes(3).toString('hex')}`);
    const plain = new DecisionEngine({ facts });
    const results = await decided(plain, list);
    const stamp = await new DecisionCache(new InMemoryKeyValueCache(), memoryRevisions, { ttlMs: TTL_MS }).currentStamp(list[0]!.caller);
    const { revisions } = stamp;
    const sample = JSON.stringify({ ...results[1], expiresAt: Date.now() });
    const permits = results.filter((r) => r.permitted).length;

    const before = heapNow(gc.gc);
    const lru = new InMemoryKeyValueCache({ maxEntries: entries });
    const filled = new DecisionCache(lru, memoryRevisions, { ttlMs: TTL_MS });
    for (let i = 0; i < entries; i++) {
      const { validUntil, ...result } = results[i]!;
      if (!(await filled.store(list[i]!, stamp, { ...result, revisions }, validUntil))) throw new Error(`entry ${i} not stored`);
    }
    const after = heapNow(gc.gc);
    let hits = 0;
    for (const request of list) if ((await filled.lookup(request)).status === 'hit') hits++;
    if (hits !== entries) throw new Error(`only ${hits} of ${entries} stored decisions are still in the cache`);
    const heap = after.heapUsed - before.heapUsed;
    const external = after.external - before.external;

    // ---- memory: Redis ----
    const redisFilled = new DecisionCache(redisCache, redisRevisions, { ttlMs: TTL_MS });
    const redisStamp = await redisFilled.currentStamp(list[0]!.caller);
    const before2 = await redisUsedMemory(admin);
    for (let start = 0; start < entries; start += 1_000) {
      // 1,000 SETs in flight at a time (one connection: pipelined on the socket).
      const stored = await Promise.all(
        list.slice(start, start + 1_000).map((request, j) => {
          const { validUntil, ...result } = results[start + j]!;
          return redisFilled.store(request, redisStamp, { ...result, revisions: redisStamp.revisions }, validUntil);
        }),
      );
      if (stored.some((s) => !s)) throw new Error('a decision was not stored in Redis');
    }
    const after2 = await redisUsedMemory(admin);
    let redisHits = 0;
    for (const request of list.slice(0, 1_000)) if ((await redisFilled.lookup(request)).status === 'hit') redisHits++;
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await admin.scan(cursor, 'MATCH', `${prefix}kv:decision:*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0' && keys.length < 200);
    const usage = (await Promise.all(keys.slice(0, 200).map((k) => admin.memory('USAGE', k)))).map(Number);
    const perKeyUsage = usage.reduce((a, b) => a + b, 0) / Math.max(1, usage.length);
    const dbsize = await admin.dbsize();
    const deleted = await deleteRedisKeys(redisUrl, prefix);
    const afterDelete = await redisUsedMemory(admin);

    out(
      `\nMemory of ${entries.toLocaleString('en')} cached decisions (distinct requests: ${USERS} users × ${ACTIONS.length} actions × distinct resource ids; ` +
        `${permits} Permit, ${entries - permits} NoMatchingPolicy; 5 evaluations each; one entry as stored: ${sample.length} bytes JSON + ${'decision:'.length + 64}-byte key)`,
    );
    out(
      formatTable([
        {
          store: 'InMemoryKeyValueCache (lru-cache) via DecisionCache.store',
          entries,
          total: mb(heap + external),
          'bytes/entry': Math.round((heap + external) / entries),
          detail: `V8 heapUsed +${mb(heap)}, external (typed arrays) +${mb(external)}; ${hits}/${entries} still hit afterwards`,
        },
        {
          store: 'Redis (RedisKeyValueCache) via DecisionCache.store',
          entries,
          total: mb(after2 - before2),
          'bytes/entry': Math.round((after2 - before2) / entries),
          detail: `INFO memory used_memory ${before2} → ${after2}; MEMORY USAGE avg of ${usage.length} keys ${Math.round(perKeyUsage)} B/key; ${redisHits}/1000 sampled hit; ${deleted} keys deleted → used_memory ${afterDelete}`,
        },
      ]),
    );
    out(`heap: process.memoryUsage() heapUsed + external delta, each after a ${gc.method}; the requests and decisions were built before the baseline.`);
    out(
      `Redis used_memory is server-wide (dbsize ${dbsize} at the peak): other clients writing at the same time would show in the delta; MEMORY USAGE is per key.`,
    );
    if (deleted < entries) throw new Error(`expected at least ${entries} Redis keys under ${prefix}, deleted ${deleted}`);
  } finally {
    await redisCache.close();
    await redisRevisions.close();
    await deleteRedisKeys(redisUrl, prefix).catch(() => undefined);
    await admin.quit().catch(() => admin.disconnect());
  }
}
