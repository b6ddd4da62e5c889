import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { Pool } from 'undici';
import { InjectConfig } from '@lp/platform/config';
import { SpanKind, Tracing } from '@lp/platform/observability';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { DeliveryIpAllowlist, type DeliveryTarget } from '../policies/delivery-ip-allowlist';
import { deliveryHeaders } from '../signing/delivery-headers';
import { WebhookDispatcherConfig, webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { parseAllowedNetworks } from './allowed-networks';
import { DeliveryAddressPolicy } from './delivery-address-policy';
import { deliveryErrorOf } from './delivery-error';
import { type AddressLookup, DELIVERY_ADDRESS_LOOKUP, guardedConnector, systemLookup } from './guarded-connector';
import { readResponseBody } from './response-body';
import { parseRetryAfter } from './retry-after';
import { deliveryBody, type DeliveryOutcome, type OutboundDelivery, WebhookTransport } from './webhook-transport';

export type HttpWebhookTransportConfig = Pick<
  WebhookDispatcherConfig,
  'WEBHOOK_ALLOWED_NETWORKS' | 'WEBHOOK_ATTEMPT_TIMEOUT_MS' | 'WEBHOOK_RESPONSE_BODY_MAX_BYTES'
>;

/**
 * Sends delivery attempts over HTTP(S) with undici: one signed POST each, bounded in time from
 * connect to last byte, redirects not followed (a 3xx is the answer), the answer's body cut for
 * the log. Every connection goes through the guarded connector (SSRF protection and the IP
 * allowlist on the address actually connected to). Connections are kept alive in one pool per
 * subscription and origin: the allowlist is asked per subscription, so a connection checked for one
 * subscription never carries another's delivery.
 */
@Injectable()
export class HttpWebhookTransport extends WebhookTransport implements OnModuleDestroy {
  private readonly logger = new Logger(HttpWebhookTransport.name);
  private readonly policy: DeliveryAddressPolicy;
  private readonly pools = new Map<string, Pool>();
  private closed = false;

  constructor(
    @InjectConfig(webhookDispatcherConfig) private readonly config: HttpWebhookTransportConfig,
    @InjectConfig(platformConfig) platform: Pick<PlatformConfig, 'NODE_ENV'>,
    private readonly allowlist: DeliveryIpAllowlist,
    @Optional() @Inject(DELIVERY_ADDRESS_LOOKUP) private readonly lookup: AddressLookup = systemLookup,
  ) {
    super();
    this.policy = new DeliveryAddressPolicy({
      allowedNetworks: parseAllowedNetworks(config.WEBHOOK_ALLOWED_NETWORKS),
      allowLoopback: platform.NODE_ENV !== 'production',
    });
  }

  /**
   * While tracing records, the attempt is a client span in the delivery's trace (its `traceparent`:
   * the consumer of the event that caused it), and the request carries that span as `traceparent`,
   * so a receiver that traces continues it. The span names the host only, like the log line below.
   */
  send(delivery: OutboundDelivery): Promise<DeliveryOutcome> {
    if (!Tracing.enabled) return this.sendNow(delivery);
    const host = URL.canParse(delivery.callbackUrl) ? new URL(delivery.callbackUrl).host : 'invalid';
    const attributes = {
      'http.request.method': 'POST',
      'server.address': host,
      'webhook.delivery_id': delivery.deliveryId,
      'webhook.event_type': delivery.eventType,
      'webhook.subscription_id': delivery.subscriptionId,
    };
    return Tracing.withParent(delivery.traceparent, () =>
      Tracing.run('POST webhook', { kind: SpanKind.CLIENT, attributes }, async (span) => {
        const outcome = await this.sendNow(delivery);
        if (outcome.kind === 'response') span?.setAttribute('http.response.status_code', outcome.status);
        else span?.setAttribute('error.type', outcome.code);
        return outcome;
      }),
    );
  }

  private async sendNow(delivery: OutboundDelivery): Promise<DeliveryOutcome> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    const url = callbackUrl(delivery.callbackUrl);
    if (!url) return { kind: 'error', code: 'Webhook.RequestFailed', message: 'the callback URL is not an http(s) URL', latencyMs: latencyMs() };
    if (this.closed) return { kind: 'error', code: 'Webhook.RequestFailed', message: 'the transport is shut down', latencyMs: latencyMs() };

    const body = deliveryBody(delivery);
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.config.WEBHOOK_ATTEMPT_TIMEOUT_MS);
    try {
      const response = await this.poolFor(url.origin, delivery).request({
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        headers: tracedHeaders(deliveryHeaders(delivery, body)),
        body,
        signal: abort.signal,
      });
      const answer = await readResponseBody(response.body, this.config.WEBHOOK_RESPONSE_BODY_MAX_BYTES);
      const retryAfterMs =
        response.statusCode === 429 || response.statusCode === 503 ? parseRetryAfter(response.headers['retry-after'], new Date()) : undefined;
      return { kind: 'response', status: response.statusCode, body: answer, ...(retryAfterMs !== undefined && { retryAfterMs }), latencyMs: latencyMs() };
    } catch (error) {
      const { code, message } = deliveryErrorOf(error, timedOut);
      // The host only: a callback URL's path or query may carry the subscriber's own token.
      if (code === 'Webhook.AddressRefused') this.logger.warn(`delivery ${delivery.deliveryId} to ${url.host} refused: ${message}`);
      return { kind: 'error', code, message, latencyMs: latencyMs() };
    } finally {
      clearTimeout(timer);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }

  private poolFor(origin: string, target: DeliveryTarget): Pool {
    const key = `${target.tenantId}/${target.subscriptionId} ${origin}`;
    const existing = this.pools.get(key);
    if (existing) return existing;
    const timeoutMs = this.config.WEBHOOK_ATTEMPT_TIMEOUT_MS;
    const pool = new Pool(origin, {
      connect: guardedConnector({
        policy: this.policy,
        allowlist: this.allowlist,
        target: { tenantId: target.tenantId, subscriptionId: target.subscriptionId },
        lookup: this.lookup,
        connectTimeoutMs: timeoutMs,
      }),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    // A pool with no connection and nothing to send goes, so subscriptions that stopped receiving hold nothing.
    const dropWhenIdle = () => {
      const { connected, size } = pool.stats;
      if (connected > 0 || size > 0 || this.pools.get(key) !== pool) return;
      this.pools.delete(key);
      void pool.close();
    };
    pool.on('disconnect', dropWhenIdle).on('connectionError', dropWhenIdle);
    this.pools.set(key, pool);
    return pool;
  }
}

/** The attempt's headers and, while tracing records, its span's `traceparent` (unsigned: it is not the receiver's data). */
function tracedHeaders(headers: Record<string, string>): Record<string, string> {
  Tracing.inject(headers);
  return headers;
}

function callbackUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
