import { SEEDED_TENANT, WebhookSubscriptionView, WebhookSubscriptionWithSecret } from '@lp/contracts';
import type { PlatformHttpServer } from '@lp/platform/runtime';
import { describeWithServers } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { close, connectMcp, listen, mcpHeaders, structured, toolError } from '../support/mcp-gateway-server';
import { signedRequests } from '../support/policy-platform';

const OTHER_TENANT = 'mcp-wh-acme';
const SUBSCRIPTIONS = '/api/webhooks/subscriptions';

interface SubscriptionPage {
  items: WebhookSubscriptionView[];
  pageIndex: number;
  pageSize: number;
  totalCount: number;
}

/** list_webhook_subscriptions end to end: the SDK Client → /mcp → webhook-dispatcher over RabbitMQ, as the caller. */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'mcp-gateway: list_webhook_subscriptions through webhook-dispatcher', () => {
  const platform = new OperationsTestPlatform('mcp-webhooks');
  let server: PlatformHttpServer | undefined;
  let baseUrl = '';
  const clientAs = (sub: string, tenantId = SEEDED_TENANT) => connectMcp(baseUrl, mcpHeaders(platform.token({ sub, tenantId }), tenantId));
  const http = (sub: string, tenantId = SEEDED_TENANT) => signedRequests(platform.service('webhook-dispatcher').http, platform.token({ sub, tenantId }));
  const created: WebhookSubscriptionWithSecret[] = [];

  beforeAll(async () => {
    await platform.start();
    ({ server, baseUrl } = await listen(platform.service('mcp-gateway')));
    await platform.grantRole(SEEDED_TENANT, 'hook-viewer', 'webhook-viewer', ['webhooks.subscription.view']);
    await platform.grantRole(SEEDED_TENANT, 'case-viewer', 'case-viewer', ['cases.case.view']);
    await platform.seedTenantAdmin(OTHER_TENANT, 'alice');
    for (const [eventTypes, isActive] of [
      [['ticket.*'], true],
      [['case.created'], false],
      [['*.completed'], true],
    ] as const) {
      const res = await http('admin').post(SUBSCRIPTIONS).send({ callbackUrl: 'https://hooks.example.com/in', eventTypes, isActive }).expect(201);
      created.push(res.body as WebhookSubscriptionWithSecret);
    }
    await http('alice', OTHER_TENANT)
      .post(SUBSCRIPTIONS)
      .send({ callbackUrl: 'https://acme.example.com/in', eventTypes: ['chat.*'] })
      .expect(201);
  }, 120_000);
  afterAll(async () => {
    await close(server);
    await platform.stop();
  });

  it('lists the tenant’s subscriptions, newest first, paged and filtered, without any secret', async () => {
    const client = await clientAs('hook-viewer');
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'list_webhook_subscriptions');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      expect(Object.keys(tool?.inputSchema.properties ?? {}).sort()).toEqual(['IsActive', 'PageIndex', 'PageSize']);

      const all = await client.callTool({ name: 'list_webhook_subscriptions', arguments: {} });
      expect(all.isError).toBeFalsy();
      const page = structured<SubscriptionPage>(all);
      expect(page).toMatchObject({ pageIndex: 0, pageSize: 20, totalCount: 3 });
      expect(page.items.map((s) => s.id)).toEqual([...created].reverse().map((s) => s.id));
      const { secret: _secret, ...view } = created[0]!;
      expect(page.items[2]).toEqual(view);
      const text = JSON.stringify(all);
      for (const subscription of created) expect(text).not.toContain(subscription.secret);

      const inactive = structured<SubscriptionPage>(await client.callTool({ name: 'list_webhook_subscriptions', arguments: { IsActive: false } }));
      expect(inactive.items.map((s) => s.id)).toEqual([created[1]!.id]);
      const second = structured<SubscriptionPage>(await client.callTool({ name: 'list_webhook_subscriptions', arguments: { PageIndex: 1, PageSize: 2 } }));
      expect(second).toMatchObject({ pageIndex: 1, pageSize: 2, totalCount: 3 });
      expect(second.items.map((s) => s.id)).toEqual([created[0]!.id]);
    } finally {
      await client.close();
    }
  });

  it('shows another tenant only its own', async () => {
    const client = await clientAs('alice', OTHER_TENANT);
    try {
      const page = structured<SubscriptionPage>(await client.callTool({ name: 'list_webhook_subscriptions', arguments: {} }));
      expect(page.totalCount).toBe(1);
      expect(page.items[0]?.callbackUrl).toBe('https://acme.example.com/in');
    } finally {
      await client.close();
    }
  });

  it('an out-of-range PageSize is an isError result naming the argument', async () => {
    const client = await clientAs('hook-viewer');
    try {
      const result = await client.callTool({ name: 'list_webhook_subscriptions', arguments: { PageSize: 500 } });
      expect(result.isError).toBe(true);
      expect(toolError(result)).toMatchObject({ code: 'Validation.Failed', errors: { PageSize: [expect.any(String)] } });
    } finally {
      await client.close();
    }
  });

  it('is not listed without webhooks.subscription.view, and a call is refused by the dispatcher’s guard', async () => {
    const client = await clientAs('case-viewer');
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('list_webhook_subscriptions');
      const result = await client.callTool({ name: 'list_webhook_subscriptions', arguments: {} });
      expect(result.isError).toBe(true);
      expect(toolError(result)).toMatchObject({ code: 'Authorization.Denied', status: 403 });
    } finally {
      await client.close();
    }
  });
});
