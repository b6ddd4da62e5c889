import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { Logger } from '@nestjs/common';
import { ConfigValidationError } from '@lp/platform/config';
import { DeliveryIpAllowlist, type DeliveryTarget, NullIpAllowlist } from '../src/policies/delivery-ip-allowlist';
import type { AddressLookup } from '../src/transport/guarded-connector';
import { HttpWebhookTransport, type HttpWebhookTransportConfig } from '../src/transport/http-webhook-transport';
import { deliveryBody, type OutboundDelivery } from '../src/transport/webhook-transport';
import { verifyPlainSignature, verifyStandardWebhook, WebhookReceiver } from './webhook-receiver';

// Only 127.0.0.1 is ever connected to: every other address appears through URLs the transport must
// refuse before connecting, or through the injected lookup; the net.connect spy proves nothing was dialled.

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function delivery(callbackUrl: string, overrides: Partial<OutboundDelivery> = {}): OutboundDelivery {
  return {
    tenantId: 'tenant-1',
    subscriptionId: 'sub-1',
    deliveryId: randomUUID(),
    eventId: randomUUID(),
    eventType: 'case.created',
    callbackUrl,
    payload: { caseId: 'c-1', title: 'Dossier « été » ✓' },
    secrets: [newSecret()],
    attemptedAt: new Date(),
    ...overrides,
  };
}

class RefusingAllowlist extends DeliveryIpAllowlist {
  readonly asked: [string, DeliveryTarget][] = [];
  constructor(private readonly refusedSubscription: string) {
    super();
  }
  allows(address: string, target: DeliveryTarget): boolean {
    this.asked.push([address, target]);
    return target.subscriptionId !== this.refusedSubscription;
  }
}

describe('HttpWebhookTransport (against a real receiver on 127.0.0.1)', () => {
  const receiver = new WebhookReceiver();
  const transports: HttpWebhookTransport[] = [];
  let connectSpy: jest.SpiedFunction<typeof net.connect>;
  let warnSpy: jest.SpiedFunction<Logger['warn']>;

  function transport(
    options: { nodeEnv?: string; config?: Partial<HttpWebhookTransportConfig>; allowlist?: DeliveryIpAllowlist; lookup?: AddressLookup } = {},
  ): HttpWebhookTransport {
    const created = new HttpWebhookTransport(
      { WEBHOOK_ALLOWED_NETWORKS: '', WEBHOOK_ATTEMPT_TIMEOUT_MS: 5000, WEBHOOK_RESPONSE_BODY_MAX_BYTES: 4096, ...options.config },
      { NODE_ENV: options.nodeEnv ?? 'development' },
      options.allowlist ?? new NullIpAllowlist(),
      options.lookup,
    );
    transports.push(created);
    return created;
  }
  // undici dials with net.connect({ host, port, ... }).
  const dialled = () => connectSpy.mock.calls.map(([options]) => (typeof options === 'object' ? (options as { host?: string }).host : options));

  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());
  beforeEach(() => {
    receiver.reset();
    connectSpy = jest.spyOn(net, 'connect');
    warnSpy = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    connectSpy.mockRestore();
    warnSpy.mockRestore();
    await Promise.all(transports.splice(0).map((t) => t.onModuleDestroy()));
  });

  describe('the request', () => {
    it('POSTs the exact body with every header, to the callback path and query', async () => {
      const d = delivery(receiver.url('/hooks/in?token=abc'), { attemptedAt: new Date('2026-11-27T10:00:00.000Z') });

      const outcome = await transport().send(d);

      expect(outcome).toMatchObject({ kind: 'response', status: 204, body: null });
      const [request] = receiver.requests;
      expect(request).toMatchObject({ method: 'POST', path: '/hooks/in?token=abc', body: deliveryBody(d) });
      expect(JSON.parse(request!.body)).toEqual({ eventId: d.eventId, eventType: 'case.created', payload: d.payload });
      expect(request!.headers).toMatchObject({
        host: `127.0.0.1:${receiver.listeningPort}`,
        'content-type': 'application/json',
        'user-agent': 'legal-platform-webhooks/1',
        'x-webhook-timestamp': '2026-11-27T10:00:00.000Z',
        'x-webhook-event': 'case.created',
        'x-webhook-delivery-id': d.deliveryId,
        'x-webhook-subscription-id': 'sub-1',
        'webhook-id': d.deliveryId,
        'webhook-timestamp': String(Date.parse('2026-11-27T10:00:00.000Z') / 1000),
        'content-length': String(Buffer.byteLength(deliveryBody(d))),
      });
      expect(request!.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    });

    it('signs so that standardwebhooks and a plain HMAC recomputation both verify, with either of two secrets', async () => {
      const [current, previous] = [newSecret(), newSecret()];
      await transport().send(delivery(receiver.url(), { secrets: [current, previous] }));

      const [request] = await receiver.waitForRequests(1);
      for (const secret of [current, previous]) {
        expect(verifyStandardWebhook(request!, secret)).toMatchObject({ eventType: 'case.created' });
        expect(verifyPlainSignature(request!, secret)).toBe(true);
      }
      expect(String(request!.headers['x-webhook-signature']).split(',')).toHaveLength(2);
      expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifyPlainSignature({ ...request!, body: request!.body.replace('c-1', 'c-2') }, current)).toBe(false);
      expect(() => verifyStandardWebhook({ ...request!, body: request!.body.replace('c-1', 'c-2') }, current)).toThrow();
      expect(verifyPlainSignature(request!, newSecret())).toBe(false);
    });

    it('keeps the connection alive across attempts to one origin', async () => {
      const t = transport();
      for (let i = 0; i < 10; i++) expect(await t.send(delivery(receiver.url()))).toMatchObject({ status: 204 });
      expect(receiver.requests).toHaveLength(10);
      // undici's pool may open a second connection when the next request comes before the first
      // connection reports itself free (a raw Pool does the same); never one per request.
      expect(dialled().length).toBeLessThanOrEqual(2);
      expect(new Set(dialled())).toEqual(new Set(['127.0.0.1']));
    });
  });

  describe('the answer', () => {
    it('does not follow a redirect: the 3xx is the answer', async () => {
      receiver.respondWith({ status: 302, headers: { location: receiver.url('/elsewhere') }, body: 'moved' });

      const outcome = await transport().send(delivery(receiver.url()));

      expect(outcome).toMatchObject({ kind: 'response', status: 302, body: 'moved' });
      expect(receiver.requests.map((r) => r.path)).toEqual(['/hook']);
    });

    it('cuts the body at the byte limit without splitting a UTF-8 character, and a huge body does not hold the attempt', async () => {
      const t = transport({ config: { WEBHOOK_RESPONSE_BODY_MAX_BYTES: 10 } });
      receiver.respondWith({ status: 200, body: 'aé€😀 and more' }, { status: 500, body: Buffer.alloc(8 * 1024 * 1024, 'x') }, { status: 200, body: 'short' });

      expect(await t.send(delivery(receiver.url()))).toMatchObject({ status: 200, body: 'aé€😀' });
      expect(await t.send(delivery(receiver.url()))).toMatchObject({ status: 500, body: 'x'.repeat(10) });
      expect(await t.send(delivery(receiver.url()))).toMatchObject({ status: 200, body: 'short' });
    });

    it('cuts before a character the limit would split', async () => {
      receiver.respondWith({ status: 200, body: 'aé€😀' });
      const outcome = await transport({ config: { WEBHOOK_RESPONSE_BODY_MAX_BYTES: 8 } }).send(delivery(receiver.url()));
      expect(outcome).toMatchObject({ status: 200, body: 'aé€' });
    });

    it('reads Retry-After of a 429 (seconds) and a 503 (HTTP date), and ignores it on other statuses or when unreadable', async () => {
      const inOneMinute = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000).toUTCString();
      receiver.respondWith(
        { status: 429, headers: { 'retry-after': '30' } },
        { status: 503, headers: { 'retry-after': inOneMinute } },
        { status: 500, headers: { 'retry-after': '30' } },
        { status: 429, headers: { 'retry-after': 'later' } },
      );
      const t = transport();

      expect(await t.send(delivery(receiver.url()))).toMatchObject({ status: 429, retryAfterMs: 30_000 });
      const dated = await t.send(delivery(receiver.url()));
      expect(dated).toMatchObject({ status: 503 });
      expect(dated.kind === 'response' && dated.retryAfterMs).toBeGreaterThan(55_000);
      expect(dated.kind === 'response' && dated.retryAfterMs).toBeLessThanOrEqual(61_000);
      expect(await t.send(delivery(receiver.url()))).not.toHaveProperty('retryAfterMs');
      expect(await t.send(delivery(receiver.url()))).not.toHaveProperty('retryAfterMs');
    });

    it('times out an attempt whose answer comes later than WEBHOOK_ATTEMPT_TIMEOUT_MS', async () => {
      receiver.respondWith({ status: 200, delayMs: 3000 });

      const outcome = await transport({ config: { WEBHOOK_ATTEMPT_TIMEOUT_MS: 300 } }).send(delivery(receiver.url()));

      expect(outcome).toMatchObject({ kind: 'error', code: 'Webhook.Timeout' });
      expect(outcome.latencyMs).toBeGreaterThanOrEqual(290);
      expect(outcome.latencyMs).toBeLessThan(2000);
    });

    it('reports a refused connection as Webhook.ConnectFailed, without throwing', async () => {
      const closed = await new WebhookReceiver().start();
      const url = closed.url();
      await closed.stop();

      expect(await transport().send(delivery(url))).toMatchObject({ kind: 'error', code: 'Webhook.ConnectFailed' });
    });

    it('reports a name that does not resolve as Webhook.DnsFailed and dials nothing', async () => {
      const lookup = jest.fn<ReturnType<AddressLookup>, Parameters<AddressLookup>>(() =>
        Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })),
      );
      expect(await transport({ lookup }).send(delivery('http://nowhere.example.test/hook'))).toMatchObject({ kind: 'error', code: 'Webhook.DnsFailed' });
      expect(lookup).toHaveBeenCalledWith('nowhere.example.test');
      expect(dialled()).toEqual([]);
    });

    it('a slow answer on one connection does not hold another', async () => {
      receiver.respondAlways((request) => (request.path === '/slow' ? { status: 200, delayMs: 1500 } : { status: 204 }));
      const t = transport();
      const slow = t.send(delivery(receiver.url('/slow')));
      await receiver.waitForRequests(1);
      const fast = await t.send(delivery(receiver.url('/fast')));
      expect(fast).toMatchObject({ status: 204 });
      expect(fast.latencyMs).toBeLessThan(1000);
      expect(await slow).toMatchObject({ status: 200 });
    });
  });

  describe('SSRF protection', () => {
    it.each([
      ['a private address', 'http://10.0.0.1/'],
      ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
      ['a mapped private address', 'http://[::ffff:10.0.0.1]/'],
      ['unique-local IPv6', 'http://[fd00::1]/'],
    ])('refuses %s in any mode, without connecting', async (_label, url) => {
      for (const nodeEnv of ['development', 'production']) {
        const outcome = await transport({ nodeEnv }).send(delivery(url));
        expect(outcome).toMatchObject({ kind: 'error', code: 'Webhook.AddressRefused' });
      }
      expect(dialled()).toEqual([]);
    });

    it('refuses loopback in production, also as an IPv4-mapped IPv6 literal, and dials nothing', async () => {
      const t = transport({ nodeEnv: 'production' });
      for (const url of [receiver.url(), `http://[::ffff:127.0.0.1]:${receiver.listeningPort}/hook`, `http://localhost:${receiver.listeningPort}/hook`]) {
        expect(await t.send(delivery(url))).toMatchObject({ kind: 'error', code: 'Webhook.AddressRefused' });
      }
      expect(dialled()).toEqual([]);
      expect(receiver.requests).toHaveLength(0);
    });

    it('allows loopback outside production', async () => {
      expect(await transport({ nodeEnv: 'development' }).send(delivery(receiver.url()))).toMatchObject({ kind: 'response', status: 204 });
      expect(await transport({ nodeEnv: 'test' }).send(delivery(receiver.url()))).toMatchObject({ kind: 'response', status: 204 });
    });

    it('allows an address inside WEBHOOK_ALLOWED_NETWORKS in production', async () => {
      const t = transport({ nodeEnv: 'production', config: { WEBHOOK_ALLOWED_NETWORKS: '10.20.0.0/16,127.0.0.0/8' } });
      expect(await t.send(delivery(receiver.url()))).toMatchObject({ kind: 'response', status: 204 });
      expect(receiver.requests).toHaveLength(1);
    });

    it('refuses a host name that resolves to a private address, checking what it resolved and dialling nothing', async () => {
      const lookup = jest.fn<ReturnType<AddressLookup>, Parameters<AddressLookup>>(() => Promise.resolve([{ address: '10.1.2.3' }]));

      const outcome = await transport({ lookup }).send(delivery('http://hooks.example.test/hook'));

      expect(outcome).toMatchObject({ kind: 'error', code: 'Webhook.AddressRefused' });
      expect(outcome.kind === 'error' && outcome.message).toContain('10.1.2.3 (private)');
      expect(lookup).toHaveBeenCalledTimes(1);
      expect(dialled()).toEqual([]);
    });

    it('connects only to the allowed addresses of a host that has refused ones too, keeping the Host header', async () => {
      const lookup: AddressLookup = () => Promise.resolve([{ address: '10.1.2.3' }, { address: '169.254.169.254' }, { address: '127.0.0.1' }]);
      const t = transport({ nodeEnv: 'production', config: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' }, lookup });

      const outcome = await t.send(delivery(`http://hooks.example.test:${receiver.listeningPort}/hook`));

      expect(outcome).toMatchObject({ kind: 'response', status: 204 });
      expect(dialled()).toEqual(['127.0.0.1']);
      expect(receiver.requests[0]!.headers.host).toBe(`hooks.example.test:${receiver.listeningPort}`);
    });

    it('asks the DeliveryIpAllowlist per subscription: a refused one gets no connection, even one already pooled for another', async () => {
      const allowlist = new RefusingAllowlist('sub-blocked');
      const t = transport({ allowlist });

      expect(await t.send(delivery(receiver.url(), { subscriptionId: 'sub-open' }))).toMatchObject({ kind: 'response', status: 204 });
      const refused = await t.send(delivery(receiver.url(), { subscriptionId: 'sub-blocked' }));

      expect(refused).toMatchObject({ kind: 'error', code: 'Webhook.AddressRefused' });
      expect(refused.kind === 'error' && refused.message).toContain('not in the IP allowlist');
      expect(receiver.requests.map((r) => r.headers['x-webhook-subscription-id'])).toEqual(['sub-open']);
      expect(allowlist.asked).toEqual([
        ['127.0.0.1', { tenantId: 'tenant-1', subscriptionId: 'sub-open' }],
        ['127.0.0.1', { tenantId: 'tenant-1', subscriptionId: 'sub-blocked' }],
      ]);
      expect(dialled()).toEqual(['127.0.0.1']);
    });

    it('never asks the allowlist about an address SSRF protection refused', async () => {
      const allowlist = new RefusingAllowlist('none');
      await transport({ allowlist }).send(delivery('http://10.0.0.1/'));
      expect(allowlist.asked).toEqual([]);
    });

    it('logs a refusal with the host only: no path, query, secret or body', async () => {
      const d = delivery('http://169.254.169.254/latest/meta-data?token=t0ps3cret');
      await transport().send(d);
      const logged = warnSpy.mock.calls.map((args) => String(args[0])).join('\n');
      expect(logged).toContain(d.deliveryId);
      expect(logged).toContain('169.254.169.254 (linkLocal)');
      for (const leak of ['meta-data', 't0ps3cret', d.secrets[0]!, deliveryBody(d)]) expect(logged).not.toContain(leak);
    });

    it('fails at construction on a malformed WEBHOOK_ALLOWED_NETWORKS', () => {
      expect(() => transport({ config: { WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,10.0.0.300/8' } })).toThrow(ConfigValidationError);
    });
  });
});
