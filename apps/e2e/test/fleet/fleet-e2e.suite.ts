import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { PERMISSION_REQUEST_DEFINITION_KEY, SEEDED_TENANT } from '@lp/contracts';
import { eventually } from '@lp/platform/testing';
import { CatalogIds } from '@lp/service/policy-management';
import { verifyStandardWebhook, WebhookReceiver } from '@lp/service/webhook-dispatcher/testing';
import { FleetProcesses } from '../support/fleet-processes';
import { connectMcp, mcpHeaders, structured } from '../support/mcp-gateway-server';

const AUTHZ = '/api/authorization';
const GUARDED_CODE = 'cases.case.view';
const GUARDED = { resource: { module: 'cases', resourceType: 'case' }, action: 'View' };

/** What a body is when the caller does not say: JSON of some shape (a problem carries `code`). */
interface Loose {
  code?: string;
  [key: string]: unknown;
}
interface Answer<T = Loose> {
  status: number;
  contentType: string | null;
  body: T;
}
interface Decision {
  outcome: 'Permit' | 'Deny' | 'NoMatchingPolicy';
  reasons: Array<{ evaluator: string; verdict: string; reason: string }>;
}

interface PermissionRequest {
  id: string;
  status: string;
  decidedBy: string | null;
  grantId: string | null;
  workflowInstanceId: string | null;
}
interface Task {
  id: string;
  instanceId: string;
  definitionKey: string;
  businessKey: string;
}
interface Execution {
  executionId: string;
  jobName: string;
  status: string;
  startedAt: string;
  finishedAt: string | null;
  ownerStartedAt: string | null;
}

/** Milliseconds since `start`, rounded, for the measurement lines. */
const since = (start: number) => Math.round(performance.now() - start);
const report = (line: string) => console.log(`[fleet-e2e] ${line}`);

/**
 * The fleet as deployed, end to end across processes: every service of `@lp/fleet` in a process of
 * its own (two of authz-decision) on PostgreSQL, RabbitMQ and Redis, every request over real HTTP
 * to the services' own ports. Each scenario prints one line with what it measured. A suite of
 * fleet.int-spec.ts, on the fleet it shares.
 */
export function fleetEndToEndSuite(fleet: FleetProcesses): void {
  describe('end to end, across processes', () => {
    const receivers: WebhookReceiver[] = [];

    /** One HTTP request to `service` (instance `instance`), as the seeded admin unless `headers` say otherwise. */
    async function call<T = Loose>(
      service: string,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = fleet.auth(),
      instance = 0,
    ): Promise<Answer<T>> {
      const res = await fetch(`${fleet.url(service, instance)}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text for the failure message
      }
      return { status: res.status, contentType: res.headers.get('content-type'), body: parsed as T };
    }
    /** `call` that must answer `status`; the body is in the failure message. */
    async function expectCall<T = Loose>(status: number, ...args: Parameters<typeof call>): Promise<T> {
      const answer = await call<T>(...args);
      expect({ status: answer.status, body: answer.body }).toEqual({ status, body: answer.body });
      return answer.body;
    }
    const expectProblem = (answer: Answer, status: number, code: string) => {
      expect({ status: answer.status, contentType: answer.contentType, code: answer.body?.code }).toEqual({
        status,
        contentType: expect.stringMatching(/application\/problem\+json/),
        code,
      });
    };

    /** The decision for `sub` on `question` from authz-decision instance `instance`, over its own HTTP port. */
    const decide = (sub: string, instance: number, question: object = GUARDED) =>
      expectCall<Decision>(200, 'authz-decision', 'POST', `${AUTHZ}/decisions`, question, fleet.auth({ sub }), instance);
    /** The outcomes of both authz-decision instances, asked at the same time. */
    const outcomes = async (sub: string, question: object = GUARDED) => (await Promise.all([0, 1].map((i) => decide(sub, i, question)))).map((d) => d.outcome);
    const permitted = (list: string[]) => list.map((o) => o === 'Permit');
    const INITIALIZE = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fleet-e2e', version: '1' } },
    };

    afterAll(async () => {
      for (const receiver of receivers) await receiver.stop();
    }, 60_000);

    it('two authz-decision processes: a role change through policy-management denies on both on the very next request, and a re-grant permits again', async () => {
      const sub = `rita-${randomUUID().slice(0, 8)}`;
      const role = await expectCall<{ id: string }>(201, 'policy-management', 'POST', `${AUTHZ}/roles`, { name: `fleet-clerk-${sub}` });
      await expectCall(204, 'policy-management', 'POST', `${AUTHZ}/roles/${role.id}/permissions`, { permissionCode: GUARDED_CODE });
      await expectCall(204, 'policy-management', 'POST', `${AUTHZ}/users/${sub}/roles/${role.id}`);
      // Asked twice, so both instances answer the second time from their decision caches.
      expect(await outcomes(sub)).toEqual(['Permit', 'Permit']);
      expect(await outcomes(sub)).toEqual(['Permit', 'Permit']);

      // Revoke the role's permission: the very next request to either instance is not a Permit.
      let start = performance.now();
      await expectCall(204, 'policy-management', 'DELETE', `${AUTHZ}/roles/${role.id}/permissions/${CatalogIds.permission(GUARDED_CODE)}`);
      const revokeMs = since(start);
      const afterRevoke = await outcomes(sub);
      const revokedMs = since(start);
      expect(permitted(afterRevoke)).toEqual([false, false]);

      // Grant it again: both permit on the very next request.
      start = performance.now();
      await expectCall(204, 'policy-management', 'POST', `${AUTHZ}/roles/${role.id}/permissions`, { permissionCode: GUARDED_CODE });
      expect(await outcomes(sub)).toEqual(['Permit', 'Permit']);
      const regrantedMs = since(start);

      // Unbind the role: denied on both again, at once.
      start = performance.now();
      await expectCall(204, 'policy-management', 'DELETE', `${AUTHZ}/users/${sub}/roles/${role.id}`);
      const afterUnbind = await outcomes(sub);
      const unboundMs = since(start);
      expect(permitted(afterUnbind)).toEqual([false, false]);

      // And bound again, permitted again.
      await expectCall(204, 'policy-management', 'POST', `${AUTHZ}/users/${sub}/roles/${role.id}`);
      expect(await outcomes(sub)).toEqual(['Permit', 'Permit']);

      report(
        `scenario 1 (role change → 2 authz-decision processes): revoke answered in ${revokeMs} ms; denied on both instances on the very first request after it ` +
          `(${afterRevoke.join('/')}), ${revokedMs} ms from the revoke request to both answers; re-grant → Permit on both in ${regrantedMs} ms; ` +
          `unbind → denied on both (${afterUnbind.join('/')}) in ${unboundMs} ms`,
      );
    }, 60_000);
    it('a global FeatureChanged from policy-management turns off workflow writes and MCP access in their own processes, and back on', async () => {
      const key = `fleet-flow-${randomUUID().slice(0, 8)}`;
      const definition = { name: 'Fleet flow', nodes: [{ kind: 'approval', key: 'approve', assignees: [{ kind: 'user', subjects: ['admin'] }] }] };
      await expectCall(201, 'workflow-engine', 'POST', `/api/workflow/definitions/${key}/deployments`, { definition });
      const startInstance = () => call('workflow-engine', 'POST', '/api/workflow/runtime/instances', { definitionKey: key, businessKey: randomUUID() });
      const mcp = mcpHeaders(fleet.token(), SEEDED_TENANT);
      const initialize = () =>
        call('mcp-gateway', 'POST', '/mcp', INITIALIZE, { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...mcp });
      const setGlobal = (feature: string, enabled: boolean) =>
        expectCall(200, 'policy-management', 'PUT', `${AUTHZ}/features/${feature}`, { enabled, scope: 'global' });

      expect((await startInstance()).status).toBe(201);
      expect((await initialize()).status).toBe(200);

      let start = performance.now();
      let workflowOffMs = -1;
      let mcpOffMs = -1;
      try {
        expect(await setGlobal('workflow.runtime', false)).toMatchObject({ code: 'workflow.runtime', globalDefault: false, effective: false });
        expect(await setGlobal('mcp.access', false)).toMatchObject({ code: 'mcp.access', globalDefault: false, effective: false });
        // Each service drops its cached feature answer when the event reaches it: polled, with a bound.
        const [refusedStart, refusedMcp] = await Promise.all([
          eventually(startInstance, (res) => res.status === 403, 10_000).then((res) => ((workflowOffMs = since(start)), res)),
          eventually(initialize, (res) => res.status === 403, 10_000).then((res) => ((mcpOffMs = since(start)), res)),
        ]);
        expectProblem(refusedStart, 403, 'Feature.Disabled');
        expectProblem(refusedMcp, 403, 'Mcp.FeatureDisabled');
        await expect(connectMcp(fleet.url('mcp-gateway'), mcp)).rejects.toThrow(/403/);
        // Reads of the workflow engine still answer: the gate is on writes.
        await expectCall(200, 'workflow-engine', 'GET', '/api/workflow/tasks/todo?pageSize=1');
      } finally {
        start = performance.now();
        await setGlobal('workflow.runtime', true);
        await setGlobal('mcp.access', true);
      }
      let workflowOnMs = -1;
      let mcpOnMs = -1;
      const [startedAgain, admittedAgain] = await Promise.all([
        eventually(startInstance, (res) => res.status !== 403, 10_000).then((res) => ((workflowOnMs = since(start)), res)),
        eventually(initialize, (res) => res.status !== 403, 10_000).then((res) => ((mcpOnMs = since(start)), res)),
      ]);
      expect(startedAgain.status).toBe(201);
      expect(admittedAgain.status).toBe(200);
      const client = await connectMcp(fleet.url('mcp-gateway'), mcp);
      try {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      } finally {
        await client.close();
      }

      report(
        `scenario 2 (global FeatureChanged → workflow-engine, mcp-gateway): off → workflow start 403 Feature.Disabled after ${workflowOffMs} ms, ` +
          `/mcp 403 Mcp.FeatureDisabled after ${mcpOffMs} ms; back on → workflow start 201 after ${workflowOnMs} ms, /mcp 200 after ${mcpOnMs} ms`,
      );
    }, 60_000);

    it('a permission request approved through the workflow engine creates a temporary grant that permits on both decision processes, then expires and denies', async () => {
      const sub = `erin-${randomUUID().slice(0, 8)}`;
      const erin = fleet.auth({ sub });
      const ROLE_VIEW = { resource: { module: 'authorization', resourceType: 'role' }, action: 'View' };
      expect(permitted(await outcomes(sub, ROLE_VIEW))).toEqual([false, false]);
      await expectCall(403, 'policy-management', 'GET', `${AUTHZ}/roles`, undefined, erin);

      const filed = await expectCall<PermissionRequest>(
        201,
        'policy-management',
        'POST',
        `${AUTHZ}/permission-requests`,
        { permissionCodes: ['authorization.role.view'], durationSeconds: 60, reason: 'fleet end to end' },
        erin,
      );
      const mine = async () =>
        (await expectCall<{ items: PermissionRequest[] }>(200, 'policy-management', 'GET', `${AUTHZ}/permission-requests/mine`, undefined, erin)).items.find(
          (r) => r.id === filed.id,
        );
      let start = performance.now();
      // policy-management publishes the filing; the engine starts the instance; policy-management records it.
      const recorded = await eventually(mine, (r) => !!r?.workflowInstanceId, 15_000);
      expect(recorded?.workflowInstanceId).toBeTruthy();
      const todo = () => expectCall<{ items: Task[] }>(200, 'workflow-engine', 'GET', '/api/workflow/tasks/todo?pageSize=100');
      const tasks = await eventually(todo, (page) => page.items.some((t) => t.businessKey === filed.id), 10_000);
      const task = tasks.items.find((t) => t.businessKey === filed.id && t.definitionKey === PERMISSION_REQUEST_DEFINITION_KEY);
      expect(task?.instanceId).toBe(recorded?.workflowInstanceId);
      const taskMs = since(start);

      start = performance.now();
      await expectCall(200, 'workflow-engine', 'POST', `/api/workflow/runtime/tasks/${task?.id}/complete`, { comment: 'fine for a moment' });
      const approved = await eventually(mine, (r) => r?.status !== 'pending', 10_000);
      expect(approved).toMatchObject({ status: 'approved', decidedBy: 'admin', grantId: expect.any(String) });
      const approvedMs = since(start);

      // The shortest duration a request may ask for is 60 s: bring the grant's end close before anyone used it,
      // so the decision caches never saw the longer expiry (as a short grant would be).
      const shortened = await fleet.sql.query<{ expires_at: Date }>(
        `UPDATE authz.temporary_grant SET expires_at = now() + interval '3 seconds' WHERE id = $1 RETURNING expires_at`,
        [approved?.grantId],
      );
      expect(shortened.rowCount).toBe(1);
      const expiresAt = (shortened.rows[0] as { expires_at: Date }).expires_at;
      const permits = await eventually(
        () => outcomes(sub, ROLE_VIEW),
        (list) => permitted(list).every(Boolean),
        5_000,
      );
      expect(permits).toEqual(['Permit', 'Permit']);
      await expectCall(200, 'policy-management', 'GET', `${AUTHZ}/roles`, undefined, erin);
      // Only the requested code.
      await expectCall(403, 'policy-management', 'GET', `${AUTHZ}/permission-requests`, undefined, erin);

      const denied = await eventually(
        () => outcomes(sub, ROLE_VIEW),
        (list) => permitted(list).every((p) => !p),
        10_000,
        50,
      );
      expect(permitted(denied)).toEqual([false, false]);
      const lateMs = Date.now() - expiresAt.getTime();
      await expectCall(403, 'policy-management', 'GET', `${AUTHZ}/roles`, undefined, erin);

      // The expiry job, run through operations in policy-management's process, records the end on the request.
      const run = await expectCall<{ status: string }>(200, 'operations', 'POST', '/api/operations/jobs/policy-management.expire-grants/run');
      expect(run.status).toBe('succeeded');
      expect((await mine())?.status).toBe('expired');

      report(
        `scenario 3 (permission request through the workflow): filing → approver's task in ${taskMs} ms; completing it → request approved with a grant in ${approvedMs} ms; ` +
          `Permit on both decision instances while it ran (its end brought to 3 s by SQL, the shortest request being 60 s); denied on both ${lateMs} ms after the grant's expiry (${denied.join('/')}); expire-grants job → request 'expired'`,
      );
    }, 60_000);

    it('a case created through MCP reaches a webhook receiver, signed so that standardwebhooks verifies it', async () => {
      const receiver = await new WebhookReceiver().start();
      receivers.push(receiver);
      const subscription = await expectCall<{ id: string; secret: string }>(201, 'webhook-dispatcher', 'POST', '/api/webhooks/subscriptions', {
        callbackUrl: receiver.url('/cases'),
        eventTypes: ['case.*'],
      });

      const client = await connectMcp(fleet.url('mcp-gateway'), mcpHeaders(fleet.token(), SEEDED_TENANT));
      let made: { id: string; matterNumber: string };
      const start = performance.now();
      try {
        const created = await client.callTool({
          name: 'create_litigation_case',
          arguments: { CaseTitle: 'Fleet v. Processes', CaseType: 'commercial', ClaimAmount: 4200, DefendantName: 'Jane Roe', Currency: 'EUR' },
        });
        expect(created.isError).toBeFalsy();
        made = structured<{ id: string; matterNumber: string }>(created);
      } finally {
        await client.close();
      }
      const createdMs = since(start);

      const isOurs = (r: { body: string }) => r.body.includes(made.id);
      const requests = await eventually(
        async () => receiver.requests,
        (list) => list.some(isOurs),
        15_000,
        25,
      );
      const delivered = requests.find(isOurs);
      if (!delivered) throw new Error(`no delivery of case ${made.id} within 15 s (${requests.length} other requests)`);
      const deliveredMs = since(start);
      const verified = verifyStandardWebhook(delivered, subscription.secret) as { eventType: string; payload: Record<string, unknown> };
      expect(verified).toEqual(JSON.parse(delivered.body));
      expect(verified).toMatchObject({
        eventType: 'case.created',
        payload: { caseId: made.id, matterNumber: made.matterNumber, owner: 'admin', tenantId: SEEDED_TENANT, title: 'Fleet v. Processes' },
      });
      expect(delivered.headers['x-webhook-subscription-id']).toBe(subscription.id);
      expect(() => verifyStandardWebhook(delivered, 'whsec_' + Buffer.from('not the secret, not at all').toString('base64'))).toThrow();

      const log = await eventually(
        () =>
          expectCall<{ items: Array<{ eventType: string; outcome: string }> }>(
            200,
            'webhook-dispatcher',
            'GET',
            `/api/webhooks/subscriptions/${subscription.id}/deliveries`,
          ),
        (page) => page.items.some((a) => a.outcome === 'succeeded'),
        10_000,
      );
      expect(log.items).toContainEqual(expect.objectContaining({ eventType: 'case.created', outcome: 'succeeded' }));

      report(
        `scenario 4 (MCP → case-management → webhook-dispatcher → receiver): create_litigation_case answered in ${createdMs} ms; ` +
          `the signed case.created delivery reached the receiver ${deliveredMs} ms after the call began, verified by standardwebhooks`,
      );
    }, 60_000);

    it("a job run from operations executes in the owning service's process and is audited as succeeded", async () => {
      const job = 'webhook-dispatcher.delivery-retention';
      // Something for the dispatcher's retention to delete: one delivered event, its delivery then dated a year back.
      const receiver = await new WebhookReceiver().start();
      receivers.push(receiver);
      const subscription = await expectCall<{ id: string }>(201, 'webhook-dispatcher', 'POST', '/api/webhooks/subscriptions', {
        callbackUrl: receiver.url('/billing'),
        eventTypes: ['billing.*'],
      });
      await expectCall(202, 'webhook-dispatcher', 'POST', '/api/webhooks/events', { eventType: 'billing.invoice.paid', payload: { invoiceId: 'INV-FLEET' } });
      const finished = () =>
        fleet.sql
          .query<{ id: string }>(`SELECT id FROM webhooks.delivery WHERE subscription_id = $1 AND status = 'succeeded'`, [subscription.id])
          .then((r) => r.rows);
      const [delivery] = await eventually(finished, (rows) => rows.length === 1, 15_000);
      if (!delivery) throw new Error(`the event to ${receiver.url('/billing')} was not delivered within 15 s`);
      await fleet.sql.query(`UPDATE webhooks.delivery SET completed_at = now() - interval '400 days' WHERE id = $1`, [delivery.id]);

      const start = performance.now();
      const run = await expectCall<{ status: string; detail: string; execution: Execution }>(
        200,
        'operations',
        'POST',
        `/api/operations/jobs/${job}/run`,
        undefined,
        {
          ...fleet.auth(),
          'X-Correlation-Id': `fleet-e2e-${randomUUID()}`,
        },
      );
      const runMs = since(start);
      // The dispatcher's own report of its retention pass, and the old delivery gone: operations has no access to that schema.
      expect(run).toMatchObject({ status: 'succeeded', detail: expect.stringMatching(/\b1 finished deliveries/) });
      expect(await finished()).toEqual([]);
      expect(run.execution).toMatchObject({ jobName: job, trigger: 'manual', status: 'succeeded', actor: 'admin', ownerStartedAt: expect.any(String) });

      const page = await expectCall<{ items: Execution[] }>(200, 'operations', 'GET', `/api/operations/jobs/${job}/executions?pageSize=5`);
      expect(page.items[0]).toMatchObject({ executionId: run.execution.executionId, status: 'succeeded', trigger: 'manual', finishedAt: expect.any(String) });
      const audited = page.items[0] as Execution;
      const ownerLagMs = Date.parse(audited.ownerStartedAt as string) - Date.parse(audited.startedAt);
      expect(ownerLagMs).toBeGreaterThanOrEqual(0);

      report(
        `scenario 5 (operations → webhook-dispatcher job over RPC): ${job} ran in ${runMs} ms (owner started ${ownerLagMs} ms after operations recorded the start), ` +
          `audited as ${audited.status}: "${run.detail}"`,
      );
    }, 60_000);
  });
}
