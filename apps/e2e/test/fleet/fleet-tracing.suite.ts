import { SEEDED_TENANT } from '@lp/contracts';
import { eventually } from '@lp/platform/testing';
import { WebhookReceiver } from '@lp/service/webhook-dispatcher/testing';
import { FleetProcesses } from '../support/fleet-processes';
import { connectMcp, mcpHeaders, structured, toolError } from '../support/mcp-gateway-server';
import { OtlpReceiver, OtlpSpanKind, type ReceivedSpan } from '../support/otlp-receiver';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;
const TRACE_ID = /^[0-9a-f]{32}$/;

/**
 * One trace across the fleet (issue 36): every service in a process of its own, as deployed, each
 * exporting OTLP/HTTP to the receiver fleet.int-spec.ts runs (a suite of that spec, on its fleet). A case created through MCP is followed from the
 * gateway's HTTP span through the `cases.create` RPC, the authorization decision and the outbox to
 * the webhook dispatcher's consumer and the delivery's request, every span's parent checked.
 */
export function fleetTracingSuite(fleet: FleetProcesses, otlp: OtlpReceiver): void {
  describe('tracing across the fleet (OpenTelemetry, OTLP/HTTP)', () => {
    const hooks = new WebhookReceiver();
    /** The `X-Correlation-Id` of every answer the MCP client got, in order. */
    const correlationIds: string[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const id = res.headers.get('x-correlation-id');
      if (id && typeof init?.body === 'string' && init.body.includes('"tools/call"')) correlationIds.push(id);
      return res;
    };

    beforeAll(() => hooks.start());
    afterAll(() => hooks.stop());

    /** The spans of `traceId` once `accept` holds for them (exports arrive in batches, from seven processes). */
    const spansOf = (traceId: string, accept: (spans: ReceivedSpan[]) => boolean) =>
      eventually(
        async () => otlp.trace(traceId),
        (spans) => accept(spans),
        15_000,
        50,
      );

    function one(spans: ReceivedSpan[], where: Partial<Pick<ReceivedSpan, 'service' | 'name' | 'kind' | 'parentSpanId' | 'spanId'>>): ReceivedSpan {
      const found = spans.filter((span) => Object.entries(where).every(([key, value]) => span[key as keyof ReceivedSpan] === value));
      if (found.length !== 1) {
        const listing = spans.map((s) => `${s.service} ${s.kind} ${s.name} ${s.spanId} <- ${s.parentSpanId || 'root'}`).join('\n');
        throw new Error(`expected one span ${JSON.stringify(where)}, found ${found.length} in:\n${listing}`);
      }
      return found[0] as ReceivedSpan;
    }

    /** Whether `ancestor` is on the parent chain of `span` within `spans`. */
    function descendsFrom(spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      for (let at: ReceivedSpan | undefined = span; at; at = byId.get(at.parentSpanId)) if (at.parentSpanId === ancestor.spanId) return true;
      return false;
    }

    it('a case created through MCP is one trace: gateway → cases.create → decision → outbox event → consumers → webhook request', async () => {
      const subscription = await fetch(`${fleet.url('webhook-dispatcher')}/api/webhooks/subscriptions`, {
        method: 'POST',
        headers: fleet.auth(),
        body: JSON.stringify({ callbackUrl: hooks.url('/traced'), eventTypes: ['case.*'] }),
      });
      expect(subscription.status).toBe(201);

      const client = await connectMcp(fleet.url('mcp-gateway'), mcpHeaders(fleet.token(), SEEDED_TENANT), { fetch: recordingFetch });
      let caseId: string;
      try {
        const created = await client.callTool({
          name: 'create_litigation_case',
          arguments: { CaseTitle: 'Traced v. Untraced', CaseType: 'commercial', ClaimAmount: 1200, DefendantName: 'Jane Roe', Currency: 'EUR' },
        });
        expect(created.isError).toBeFalsy();
        caseId = structured<{ id: string }>(created).id;
      } finally {
        await client.close();
      }

      // The receiver's request names the trace and the span that sent it.
      const requests = await eventually(
        async () => hooks.requests,
        (list) => list.some((r) => r.body.includes(caseId)),
        15_000,
      );
      const delivered = requests.find((r) => r.body.includes(caseId));
      if (!delivered) throw new Error(`no webhook delivery of case ${caseId}`);
      const [, traceId, sendingSpanId] = TRACEPARENT.exec(String(delivered.headers['traceparent'])) ?? [];
      if (!traceId || !sendingSpanId) throw new Error(`the delivery has no valid traceparent: ${String(delivered.headers['traceparent'])}`);

      // The tool call's correlation id is the trace id (the client sent none).
      expect(correlationIds.at(-1)).toBe(traceId);

      const consumed = (service: string) => (list: ReceivedSpan[]) => list.some((s) => s.service === service && s.kind === OtlpSpanKind.consumer);
      // Each process exports in batches of its own: wait until every span asserted on below has come.
      const expected: Array<(s: ReceivedSpan) => boolean> = [
        (s) => s.parentSpanId === '',
        (s) => s.service === 'mcp-gateway' && s.name === 'cases.create',
        (s) => s.service === 'case-management' && s.name === 'cases.create',
        (s) => s.service === 'case-management' && s.name === 'authz.decide',
        (s) => s.service === 'case-management' && s.kind === OtlpSpanKind.producer,
        (s) => s.service === 'authz-decision' && s.name === 'authz.decide',
        (s) => s.service === 'webhook-dispatcher' && s.kind === OtlpSpanKind.consumer,
        (s) => s.spanId === sendingSpanId,
      ];
      const spans = await spansOf(traceId, (list) => consumed('policy-management')(list) && expected.every((match) => list.some(match)));
      const root = one(spans, { parentSpanId: '' });
      expect(root).toMatchObject({ service: 'mcp-gateway', kind: OtlpSpanKind.server });
      // Named by its route (the express instrumentation), the HTTP method an attribute.
      expect(root).toMatchObject({ name: 'POST /mcp', attributes: expect.objectContaining({ 'http.request.method': 'POST', 'http.route': '/mcp' }) });

      const rpcClient = one(spans, { service: 'mcp-gateway', name: 'cases.create', kind: OtlpSpanKind.client });
      expect(descendsFrom(spans, rpcClient, root)).toBe(true);
      const rpcServer = one(spans, { service: 'case-management', name: 'cases.create', kind: OtlpSpanKind.server, parentSpanId: rpcClient.spanId });

      // The guard's decision: case-management asks authz-decision, whose server span continues the call.
      const decide = spans.filter((s) => s.service === 'case-management' && s.name === 'authz.decide' && s.kind === OtlpSpanKind.client);
      expect(decide.length).toBeGreaterThanOrEqual(1);
      for (const call of decide) {
        expect(descendsFrom(spans, call, rpcServer)).toBe(true);
        one(spans, { service: 'authz-decision', name: 'authz.decide', kind: OtlpSpanKind.server, parentSpanId: call.spanId });
      }

      // The write's queries (pg instrumentation) and its event (the outbox row's producer span).
      expect(
        spans.some(
          (s) =>
            s.service === 'case-management' &&
            s.kind === OtlpSpanKind.client &&
            s.attributes['db.system.name'] === 'postgresql' &&
            descendsFrom(spans, s, rpcServer),
        ),
      ).toBe(true);
      const producer = one(spans, { service: 'case-management', name: 'publish case.created', kind: OtlpSpanKind.producer });
      expect(descendsFrom(spans, producer, rpcServer)).toBe(true);

      // Every consumer of the event continues the producer's span: policy-management's (which reacts to
      // a new case) and the webhook dispatcher's, whose delivery request continues its consumer's.
      one(spans, { service: 'policy-management', name: 'process case.created', kind: OtlpSpanKind.consumer, parentSpanId: producer.spanId });
      const consumer = one(spans, { service: 'webhook-dispatcher', name: 'process case.created', kind: OtlpSpanKind.consumer, parentSpanId: producer.spanId });
      const webhook = one(spans, { service: 'webhook-dispatcher', spanId: sendingSpanId, kind: OtlpSpanKind.client });
      expect(webhook.parentSpanId).toBe(consumer.spanId);
      expect(webhook.attributes['http.response.status_code']).toBe(204);
      expect(otlp.refused).toEqual([]);

      // Log lines written inside the trace name it: the gateway's request line, with the span it was written in.
      const logged = fleet
        .process('mcp-gateway')
        .output()
        .split('\n')
        .filter((line) => line.includes(`"trace_id":"${traceId}"`));
      expect(logged.length).toBeGreaterThan(0);
      for (const line of logged) expect(JSON.parse(line)).toMatchObject({ trace_id: traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    }, 60_000);

    it("a denied call's problem keeps its correlation id, and that id is the trace where the denial shows", async () => {
      const client = await connectMcp(fleet.url('mcp-gateway'), mcpHeaders(fleet.token({ sub: 'nobody-in-particular' }), SEEDED_TENANT));
      let correlationId = '';
      try {
        const result = await client.callTool({
          name: 'create_litigation_case',
          arguments: { CaseTitle: 'Not mine to file', CaseType: 'civil', ClaimAmount: 10, DefendantName: 'X' },
        });
        const problem = toolError(result);
        expect(problem.code).toBe('Authorization.Denied');
        correlationId = problem.correlationId ?? '';
      } finally {
        await client.close();
      }
      expect(correlationId).toMatch(TRACE_ID);
      // Each process exports in batches of its own: wait for the gateway's root span as well as case-management's server span.
      const spans = await spansOf(
        correlationId,
        (list) =>
          list.some((s) => s.parentSpanId === '') &&
          list.some((s) => s.service === 'case-management' && s.name === 'cases.create' && s.kind === OtlpSpanKind.server),
      );
      expect(one(spans, { parentSpanId: '' }).service).toBe('mcp-gateway');
      // The RPC answered a problem: its server span is marked failed, and no event was written.
      expect(one(spans, { service: 'case-management', name: 'cases.create', kind: OtlpSpanKind.server }).statusCode).toBe(2);
      expect(spans.some((s) => s.kind === OtlpSpanKind.producer)).toBe(false);
    }, 30_000);
  });
}
