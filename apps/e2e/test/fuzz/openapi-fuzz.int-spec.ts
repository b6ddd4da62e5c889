import type { Server } from 'node:http';
import request from 'supertest';
import { createHttpServer } from '@lp/platform/runtime';
import { describeWithServers } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SEEDED_TENANT } from '@lp/contracts';
import { problemOfResult } from '@lp/service/mcp-gateway';
import { FuzzOperation, FuzzRequest, JsonSchema, mutationKindsOf, operationsOf, plausible, PROTOTYPE_KEYS, withOwnKeys } from './request-mutations';
import { digestOf, fuzzSettings, planFor, replayOf } from './mutation-plan';
import { comparableHeaders, documentedPaths, undocumentedMethod } from './http-semantics-probes';

/** FUZZ_SEED and FUZZ_BUDGET (docs/development.md): the run's seed is printed first and in every failure. */
const settings = fuzzSettings();
/** A deep run (FUZZ_BUDGET=all or a large number) sends many times the default's requests. */
const SWEEP_TIMEOUT = settings.budget === 'all' ? 900_000 : Math.max(300_000, settings.budget * 5_000);
/** Probes and the RFC 9728 metadata (read before a client holds a token) answer without a token by design. */
const PUBLIC = /^\/(health|metrics|\.well-known)/;

/**
 * Every operation of every service's OpenAPI document, driven with hostile input (request-mutations.ts):
 * nothing may reach a 5xx, and every 4xx is RFC 9457 problem+json with a stable code. A route added
 * to any service is covered the day it lands, since the operations come from the served documents.
 * Every operation gets every kind of hostile input; FUZZ_BUDGET bounds the requests per operation
 * and FUZZ_SEED picks the concrete values (mutation-plan.ts).
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'fuzzing every route of every service', () => {
  // The write limit is raised so the fuzzer reaches validation and handlers, not only 429s.
  const platform = new OperationsTestPlatform('fuzz', {
    env: { USER_POLICY_LIMIT: '1000000', MCP_CALLER_RATE_LIMIT: '1000000', MCP_TENANT_RATE_LIMIT: '1000000' },
  });
  const apps = () => [platform.policy, ...platform.decisionInstances.slice(0, 1), ...platform.operations, ...platform.services.values()];
  // Each app behind the HTTP server it runs with in production, so requests Node's own parser
  // refuses (headers or URL too large) are answered as they would be there.
  const servers = new Map<string, Server>();
  beforeAll(async () => {
    process.stdout.write(`fuzz: ${replayOf(settings)} (replay with these set: CI=true npx jest apps/e2e/test/fuzz/openapi-fuzz.int-spec.ts)\n`);
    await platform.start();
    for (const app of apps()) {
      const server = createHttpServer(app.http);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.set(app.definition.name, server);
    }
  }, 90_000);
  afterAll(async () => {
    for (const server of servers.values()) await new Promise((resolve) => server.close(resolve));
    await platform.stop();
  });

  const operations = (): FuzzOperation[] => apps().flatMap((a) => operationsOf(a.definition.name, a.openApi as never));

  const SERVICE_PREFIXES: Array<[string, string]> = [
    ['/api/authorization/decisions', 'authz-decision'],
    ['/api/authorization/', 'policy-management'],
    ['/api/cases', 'case-management'],
    ['/api/workflow/', 'workflow-engine'],
    ['/api/webhooks/', 'webhook-dispatcher'],
  ];
  const serviceOf = (url: string) => SERVICE_PREFIXES.find(([prefix]) => url.startsWith(prefix))?.[1] ?? 'policy-management';

  async function send(http: unknown, req: FuzzRequest, token?: string) {
    // supertest makes a helper for every method Node knows (QUERY included) but types only the common ones.
    const agent = request(http as never) as unknown as Record<FuzzRequest['method'], (url: string) => request.Test>;
    let call = agent[req.method](req.url);
    if (token) call = call.set('Authorization', `Bearer ${token}`);
    if (req.body !== undefined) call = call.set('Content-Type', 'application/json').send(req.body);
    return call;
  }

  it('covers the routes of every service', () => {
    const byService = new Map<string, number>();
    for (const op of operations()) byService.set(op.service, (byService.get(op.service) ?? 0) + 1);
    expect(byService.get('policy-management')).toBeGreaterThan(30);
    expect(byService.get('authz-decision')).toBeGreaterThanOrEqual(2);
    expect(byService.get('operations')).toBeGreaterThanOrEqual(6);
    // /mcp POST and GET (HEAD is not fuzzed), the two RFC 9728 metadata documents, the runtime's three probes.
    expect(byService.get('mcp-gateway')).toBe(7);
    expect(byService.get('case-management')).toBeGreaterThanOrEqual(3);
    // The 19 definition routes of spec §4 (the runtime, tasks and the rest come later).
    expect(byService.get('workflow-engine')).toBeGreaterThanOrEqual(15);
  });

  it(
    'answers every hostile request with a 4xx problem+json or a success, never a 5xx',
    async () => {
      const token = platform.token();
      const failures: string[] = [];
      const plans = operations().map((op) => ({ op, requests: planFor(op, settings) }));
      const all = plans.flatMap((p) => p.requests);
      // Requests and milliseconds per kind, printed at the end: where the sweep's time goes.
      const kinds = new Map<string, { count: number; ms: number }>();
      // Every kind that applies to an operation is sent to it, whatever the budget.
      for (const { op, requests } of plans) {
        const sentKinds = new Set(requests.map((req) => req.kind));
        const missing = mutationKindsOf(op).filter((k) => !sentKinds.has(k.kind));
        if (missing.length > 0 || !sentKinds.has('generated')) failures.push(`${op.method} ${op.path}: kinds not sent: ${missing.map((k) => k.kind)}`);
      }
      for (const { op, requests } of plans) {
        const http = servers.get(op.service)!;
        for (const req of requests) {
          const started = performance.now();
          const res = await send(http, req, token);
          const tally = kinds.get(req.kind) ?? { count: 0, ms: 0 };
          kinds.set(req.kind, { count: tally.count + 1, ms: tally.ms + performance.now() - started });
          const where = `${op.method.toUpperCase()} ${op.path} [${req.label}] -> ${res.status} (${replayOf(settings)})`;
          if (res.status >= 500) failures.push(`${where} ${res.text.slice(0, 160)}`);
          else if (res.status >= 400) {
            if (!/^application\/problem\+json/.test(res.headers['content-type'] ?? '')) failures.push(`${where}: content-type ${res.headers['content-type']}`);
            else if (typeof res.body?.code !== 'string') failures.push(`${where}: no code`);
            else if (typeof res.body?.correlationId !== 'string' || !res.headers['x-correlation-id']) failures.push(`${where}: no correlation id`);
          }
        }
      }
      process.stdout.write(
        `fuzz: ${replayOf(settings)}: ${all.length} requests over ${plans.length} operations, digest ${digestOf(all)}, ${failures.length} failures; ` +
          `by kind (requests/ms): ${[...kinds].map(([kind, t]) => `${kind} ${t.count}/${Math.round(t.ms)}`).join(', ')}\n`,
      );
      expect(failures).toEqual([]);
    },
    SWEEP_TIMEOUT,
  );

  it('answers every MCP tool called with prototype-key arguments with a tool result, never a JSON-RPC error or a 5xx', async () => {
    const mcp = (body: object) =>
      request(servers.get('mcp-gateway')!)
        .post('/mcp')
        .set('Authorization', `Bearer ${platform.token()}`)
        .set('X-Tenant-Id', SEEDED_TENANT)
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, ...body });
    const listed = await mcp({ method: 'tools/list', params: {} });
    const tools = listed.body.result.tools as Array<{ name: string; inputSchema: JsonSchema }>;
    expect(tools.length).toBeGreaterThanOrEqual(10);
    const failures: string[] = [];
    for (const tool of tools) {
      for (const [key, value] of PROTOTYPE_KEYS) {
        const res = await mcp({
          method: 'tools/call',
          params: { name: tool.name, arguments: JSON.parse(withOwnKeys(plausible(tool.inputSchema), [[key, value]])) },
        });
        const result = res.body?.result as CallToolResult | undefined;
        const where = `${tool.name} [${key}] -> ${res.status}`;
        const problem = result && problemOfResult(result);
        if (res.status !== 200 || !result) failures.push(`${where} ${res.text.slice(0, 160)}`);
        else if (result.isError && !(typeof problem?.code === 'string' && problem.status < 500 && result.structuredContent === undefined))
          failures.push(`${where} ${JSON.stringify(result)}`);
      }
    }
    process.stdout.write(`fuzz: ${tools.length * PROTOTYPE_KEYS.length} MCP tool calls over ${tools.length} tools, ${failures.length} failures\n`);
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers every operation without a token with 401 problem+json', async () => {
    for (const op of operations().filter((o) => !PUBLIC.test(o.path))) {
      const http = servers.get(op.service)!;
      // The first request of the first kind (deep nesting, a well-formed path, prototype keys in the query): not seeded.
      const req = mutationKindsOf(op)[0]!.variants[0];
      const res = await send(http, req!);
      expect(`${op.method} ${op.path} ${res.status} ${res.body?.code}`).toBe(`${op.method} ${op.path} 401 Authentication.Required`);
    }
  });

  // The cases of the attack run, each a 500 before: now a 400 naming the field.
  it.each([
    ['POST', '/api/authorization/roles/00000000-0000-0000-0000-000000000001/permissions', '{"permissionCode":null}', 'permissionCode'],
    ['POST', '/api/authorization/permission-simulation/evaluate', '{"subject":"x"}', 'request'],
    [
      'POST',
      '/api/authorization/permission-simulation/evaluate',
      '{"subject":"x","callerKind":"delegated","request":{"resource":{"module":"cases","resourceType":"case"},"action":"View"}}',
      'actor',
    ],
    ['PUT', '/api/authorization/abac-rules/00000000-0000-0000-0000-000000000001', '{"name":"r","priority":1,"verdict":"Deny","conditions":[[]]}', 'conditions'],
    ['POST', '/api/authorization/roles', '{"name":"a\\u0000b"}', 'name'],
    ['POST', '/api/authorization/roles', '{"name":"a\\ud800b"}', 'name'],
    ['PUT', '/api/authorization/features/a%00b', '{"enabled":true}', 'featureCode'],
    ['POST', '/api/authorization/roles', `${'{"a":'.repeat(1500)}1${'}'.repeat(1500)}`, 'a.a.a'],
    // Object.prototype member names, a 500 on 31 routes before (`problems[parentKey].push is not a function`): one route per family.
    ['POST', '/api/cases', '{"constructor":1}', 'constructor'],
    ['POST', '/api/workflow/definitions/validate', '{"key":"k","name":"n","nodes":[],"__proto__":1}', '__proto__'],
    ['POST', '/api/workflow/runtime/instances', '{"definitionKey":"k","toString":1}', 'toString'],
    ['POST', '/api/workflow/reports/instances/_query', '{"hasOwnProperty":1}', 'hasOwnProperty'],
    ['POST', '/api/workflow/management/import', '{"constructor":{}}', 'constructor'],
    ['PUT', '/api/workflow/history/retention', '{"retentionDays":30,"constructor":{}}', 'constructor'],
    ['POST', '/api/webhooks/subscriptions', '{"url":"https://example.com/h","eventTypes":["case.created"],"constructor":{}}', 'constructor'],
    ['POST', '/api/webhooks/events', '{"eventType":"case.created","payload":{},"__proto__":{}}', '__proto__'],
  ])('%s %s (body %#) -> 400 naming %s', async (method, url, body, field) => {
    const service = serviceOf(url);
    const res = await send(servers.get(service)!, { label: 'named', method: method.toLowerCase() as FuzzRequest['method'], url, body }, platform.token());
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('Validation.Failed');
    expect(Object.keys(res.body.errors).some((k) => k.startsWith(field))).toBe(true);
  });

  describe('HTTP semantics on every documented path (RFC 9110)', () => {
    const paths = () => apps().flatMap((a) => documentedPaths(a.definition.name, a.openApi as never));
    // supertest makes a helper for every method Node knows (QUERY included) but types only the common ones.
    const agent = (service: string) =>
      request(servers.get(service)!) as unknown as Record<'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'query', (url: string) => request.Test>;
    const call = (service: string, method: string, url: string) => agent(service)[method.toLowerCase() as 'get'](url);
    /** Every answer, whoever gives it, carries the security headers and a correlation id (problem bodies too). */
    const baseline = (res: request.Response) => ({
      nosniff: res.headers['x-content-type-options'],
      csp: typeof res.headers['content-security-policy'],
      correlation: typeof res.headers['x-correlation-id'],
      bodyCorrelation: res.status >= 400 && res.request.method !== 'HEAD' ? res.body?.correlationId : res.headers['x-correlation-id'],
    });
    const carriesBaseline = (res: request.Response) =>
      expect(baseline(res)).toEqual({ nosniff: 'nosniff', csp: 'string', correlation: 'string', bodyCorrelation: res.headers['x-correlation-id'] });

    it('answers HEAD wherever GET answers, with the same status and headers and no body', async () => {
      const token = platform.token();
      const gets = paths().filter((p) => p.methods.includes('GET'));
      // The API explorer is no operation of a document; every service app serves it.
      const extra = apps().flatMap((a) => ['/docs', '/docs/explorer.js'].map((url) => ({ service: a.definition.name, url })));
      const mismatches: string[] = [];
      for (const { service, url } of [...gets, ...extra]) {
        const get = await agent(service).get(url).set('Authorization', `Bearer ${token}`);
        const head = await agent(service).head(url).set('Authorization', `Bearer ${token}`);
        carriesBaseline(head);
        const [getHeaders, headHeaders] = [JSON.stringify(comparableHeaders(get.headers)), JSON.stringify(comparableHeaders(head.headers))];
        if (get.status !== head.status || head.text)
          mismatches.push(`${service} ${url}: GET ${get.status}, HEAD ${head.status}${head.text ? ' with a body' : ''}`);
        else if (getHeaders !== headHeaders) mismatches.push(`${service} ${url}: GET ${getHeaders}, HEAD ${headHeaders}`);
      }
      expect(gets.length).toBeGreaterThan(60);
      expect(mismatches).toEqual([]);
    });

    it('answers a method a path does not have with 405 problem+json and an Allow header listing the ones it has', async () => {
      const refused: string[] = [];
      const all = paths();
      for (const documented of all) {
        const method = undocumentedMethod(
          documented,
          all.filter((other) => other.service === documented.service),
        );
        if (!method) continue;
        // No token: a method no route has is refused before anything asks who calls.
        const res = await call(documented.service, method, documented.url);
        carriesBaseline(res);
        const allow = (res.headers.allow ?? '').split(', ');
        if (res.status !== 405 || res.body?.code !== 'MethodNotAllowed' || allow.includes(method) || documented.methods.some((m) => !allow.includes(m)))
          refused.push(`${method} ${documented.path} (${documented.service}) -> ${res.status} ${res.body?.code} Allow: ${res.headers.allow}`);
      }
      expect(refused).toEqual([]);
      const unknown = await agent('case-management').delete('/api/cases/00000000-0000-0000-0000-000000000000/nothing-here');
      expect([unknown.status, unknown.body.code, unknown.headers.allow]).toEqual([404, 'NotFound', undefined]);
    });

    it('answers content that is not JSON with 415 problem+json on every operation that takes a body', async () => {
      const token = platform.token();
      const failures: string[] = [];
      const operations = paths().flatMap((p) => p.bodyMethods.map((method) => ({ ...p, method })));
      for (const { service, path, url, method } of operations) {
        for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
          const res = await call(service, method, url).set('Authorization', `Bearer ${token}`).set('Content-Type', type).send('{}');
          carriesBaseline(res);
          if (res.status !== 415 || res.body?.code !== 'UnsupportedMediaType') failures.push(`${method} ${path} (${type}) -> ${res.status} ${res.body?.code}`);
        }
      }
      expect(operations.length).toBeGreaterThan(60);
      expect(failures).toEqual([]);
    });
  });

  it('answers headers over the limit with 431 problem+json and a correlation id, not an empty body', async () => {
    const server = servers.get('policy-management')!;
    const res = await request(server).get('/api/authorization/roles').set('X-Huge', 'x'.repeat(20_000));
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 431, code: 'RequestHeaderFieldsTooLarge', correlationId: expect.any(String) });
  });

  it('puts the correlation id on the 400 for malformed JSON', async () => {
    const res = await request(servers.get('policy-management')!)
      .post('/api/authorization/roles')
      .set('Authorization', `Bearer ${platform.token()}`)
      .set('Content-Type', 'application/json')
      .set('X-Correlation-Id', 'corr-broken-json')
      .send('{"name":');
    expect(res.status).toBe(400);
    expect(res.headers['x-correlation-id']).toBe('corr-broken-json');
    expect(res.body.correlationId).toBe('corr-broken-json');
  });
});
