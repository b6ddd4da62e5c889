/**
 * MCP gateway overhead: `tools/call get_case_by_id` through the gateway (the SDK's Client over
 * Streamable HTTP → token check, the /mcp limits in Redis, the tenant's `mcp.access` gate (cached),
 * the tool's `cases.get` RPC as the caller) against the direct `cases.get` RPC as the same caller,
 * the floor, in the same run. Each server runs in a process of its own, as deployed:
 * policy-management + authz-decision, case-management and mcp-gateway, on PostgreSQL, RabbitMQ and
 * Redis, in a database, queue prefix and key prefix of this run's own, deleted at the end.
 * Target: gateway p50 and p99 ≤ 2x the floor's.
 */
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import jwt from 'jsonwebtoken';
import { CasesRpc, SEEDED_ADMIN_SUBJECT, SEEDED_TENANT } from '@lp/contracts';
import { AccessTokenClaims, callerFromClaims, signAccessToken } from '@lp/platform/auth';
import { createRpcClient, RpcClient } from '@lp/platform/messaging';
import { createTestDatabase, deleteRedisKeys, TestDatabase } from '@lp/platform/testing';
import { deleteTopology } from './decision-bench-stack';
import { profileServer, startListeningServer, startServer, stopServer, teardownSteps, benchRunEnv } from './bench-processes';
import { formatProfile } from './cpu-profile';
import { interleaved } from './interleaved';
import { formatTable } from './latency-stats';

const out = (text: string) => process.stdout.write(`${text}\n`);
const TIMEOUT_MS = 10_000;
const TARGET_RATIO = 2;

/**
 * The SDK client passes one AbortSignal (its transport's) to every request, and undici lets go of a
 * request's abort listener only when the request is collected: thousands of calls in a row trip
 * Node's listener-leak warning on that signal, which says nothing about the gateway.
 */
const unboundedSignalFetch: typeof fetch = (input, init) => {
  if (init?.signal) setMaxListeners(0, init.signal);
  return fetch(input, init);
};

export async function benchMcp(options: { quick: boolean; amqpUrl: string; profile: 'on-fail' | 'always' | 'never' }): Promise<void> {
  const urls = {
    postgres: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redis: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
  const id = `bench_mcp_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), `${id}-`));
  const total = options.quick ? 300 : 3_000;
  const jwtSettings = { JWT_SECRET: randomBytes(32).toString('base64url'), JWT_ISSUER: 'bench-issuer', JWT_AUDIENCE: 'bench-audience' };
  out(`\nMCP gateway: tools/call get_case_by_id vs the direct cases.get RPC, servers in their own processes — database ${id}, AMQP_PREFIX ${id}.`);
  let db: TestDatabase | undefined;
  const servers: ChildProcess[] = [];
  let rpc: RpcClient | undefined;
  let mcp: McpClient | undefined;
  try {
    db = await createTestDatabase(urls.postgres, id);
    const env = benchRunEnv(id, { database: db.url, amqp: options.amqpUrl, redis: urls.redis }, dataDir);
    // policy-management first: it migrates and seeds the catalog, tenant `default` and its admin.
    servers.push(await startServer('decision', env));
    const [cases, gateway] = await Promise.all([
      startServer('cases', env),
      // The limits are not what is measured here.
      startListeningServer('mcp-gateway', { ...env, ...jwtSettings, MCP_CALLER_RATE_LIMIT: '10000000', MCP_TENANT_RATE_LIMIT: '10000000' }),
    ]);
    servers.push(cases, gateway.child);

    const token = signAccessToken(
      { sub: SEEDED_ADMIN_SUBJECT, tenantId: SEEDED_TENANT },
      { secret: jwtSettings.JWT_SECRET, issuer: jwtSettings.JWT_ISSUER, audience: jwtSettings.JWT_AUDIENCE },
    );
    // The very caller the gateway derives from the token, for the direct call.
    const caller = callerFromClaims(jwt.decode(token) as AccessTokenClaims);
    mcp = new McpClient({ name: 'bench', version: '1' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${gateway.port}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}`, 'X-Tenant-Id': SEEDED_TENANT } },
        fetch: unboundedSignalFetch,
      }),
    );
    const created = await mcp.callTool({
      name: 'create_litigation_case',
      arguments: { CaseTitle: 'Bench v. Floor', CaseType: 'civil', ClaimAmount: 100, DefendantName: 'Floor' },
    });
    if (created.isError) throw new Error(`case not created: ${JSON.stringify(created.content)}`);
    const caseId = (created.structuredContent as { id: string }).id;

    rpc = createRpcClient({ kind: 'rabbitmq', url: options.amqpUrl, prefix: `${id}.` });
    let unexpected = 0;
    const direct = async () => {
      const found = await rpc!.call(CasesRpc.get, { caller, payload: { caseId } }, { timeoutMs: TIMEOUT_MS });
      if (found.id !== caseId) unexpected++;
    };
    const viaGateway = async () => {
      const result = await mcp!.callTool({ name: 'get_case_by_id', arguments: { CaseId: caseId } });
      if (result.isError || (result.structuredContent as { id?: string } | undefined)?.id !== caseId) unexpected++;
    };
    const [floor, tool] = await interleaved([direct, viaGateway], total, 1, {
      warmup: options.quick ? 30 : 200,
      pids: { gateway: gateway.child.pid as number, cases: cases.pid as number, decision: servers[0]!.pid as number },
    });
    if (unexpected > 0) throw new Error(`${unexpected} answers were not the case`);
    const row = (what: string, t: typeof floor) => ({
      call: what,
      calls: t.count,
      'p50 ms': t.p50,
      'p99 ms': t.p99,
      'ops/s': Math.round(t.opsPerSecond),
      'gateway cpu ms/call': (t.byPid?.get('gateway') ?? 0).toFixed(3),
    });
    out(formatTable([row('cases.get RPC (floor)', floor), row('MCP tools/call get_case_by_id', tool)]));
    const p50 = tool.p50 / floor.p50;
    const p99 = tool.p99 / floor.p99;
    const verdict = p50 <= TARGET_RATIO && p99 <= TARGET_RATIO ? 'within' : 'OVER';
    out(`MCP get_case_by_id / cases.get RPC: p50 ${p50.toFixed(2)}x, p99 ${p99.toFixed(2)}x (target ≤ ${TARGET_RATIO}x: ${verdict})`);
    out(
      `of the gateway's p50 ${tool.p50.toFixed(2)} ms: the cases.get RPC it makes p50 ${floor.p50.toFixed(2)} ms, ` +
        `the rest (HTTP, token, limits in Redis, the cached mcp.access gate, MCP framing) ${(tool.p50 - floor.p50).toFixed(2)} ms`,
    );
    if (options.profile === 'always' || (options.profile === 'on-fail' && verdict === 'OVER')) {
      const calls = options.quick ? 200 : 1_000;
      const profile = await profileServer(gateway.child, calls, viaGateway, 1);
      out(`\nconcurrency 1, ${calls} calls: busy time of the gateway process's main thread per call by where it was spent (V8 sampling profile)`);
      out(formatProfile([{ label: 'mcp-gateway server', profile }]));
    }
  } finally {
    const { attempt, problems } = teardownSteps();
    if (mcp) await attempt('mcp client', () => mcp!.close());
    if (rpc) await attempt('rpc client', () => rpc!.close());
    for (const server of servers.reverse()) await attempt('server', () => stopServer(server));
    if (db) await attempt('database', () => db!.drop());
    await attempt('redis keys', () => deleteRedisKeys(urls.redis, `${id}:`));
    await attempt('rabbitmq topology', () => deleteTopology(options.amqpUrl, `${id}.`));
    rmSync(dataDir, { recursive: true, force: true });
    out(
      problems.length === 0
        ? `teardown: servers stopped; database dropped; Redis keys and RabbitMQ queues of ${id} deleted`
        : `teardown problems: ${problems.join('; ')}`,
    );
  }
}
