import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as received (UTF-8). */
  body: string;
  receivedAt: Date;
}

/** How the receiver answers one request. */
export interface ReceiverResponse {
  status: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Waits this long before answering (a timer per request: other connections are served meanwhile). */
  delayMs?: number;
}

export type ReceiverResponder = (request: ReceivedWebhook) => ReceiverResponse;

/**
 * A real HTTP server on 127.0.0.1 (random port) that records every request and answers from a
 * queue of programmed responses, then a default (204), or from a function. For the specs of the
 * transport and of anything that delivers webhooks.
 */
export class WebhookReceiver {
  readonly requests: ReceivedWebhook[] = [];
  private server?: Server;
  private port = 0;
  private readonly queue: ReceiverResponse[] = [];
  private responder: ReceiverResponder = () => ({ status: 204 });
  private readonly waiters = new Set<() => void>();
  private readonly timers = new Set<NodeJS.Timeout>();

  async start(): Promise<this> {
    const server = createServer((req, res) => this.receive(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get listeningPort(): number {
    return this.port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Answers the next requests with these, in order; then the default again. */
  respondWith(...responses: ReceiverResponse[]): this {
    this.queue.push(...responses);
    return this;
  }

  /** Answers every request (once the queue is empty) with what `responder` returns. */
  respondAlways(responder: ReceiverResponse | ReceiverResponder): this {
    this.responder = typeof responder === 'function' ? responder : () => responder;
    return this;
  }

  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.responder = () => ({ status: 204 });
  }

  /** Resolves with the requests once at least `count` arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, { timeoutMs = 5000 }: { timeoutMs?: number } = {}): Promise<ReceivedWebhook[]> {
    if (this.requests.length >= count) return Promise.resolve([...this.requests]);
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.requests.length < count) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve([...this.requests]);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`WebhookReceiver: ${this.requests.length} of ${count} requests after ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  private receive(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedWebhook = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: new Date(),
      };
      this.requests.push(request);
      const response = this.queue.shift() ?? this.responder(request);
      for (const waiter of [...this.waiters]) waiter();
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(response.status, response.headers);
        res.end(response.body);
      };
      if (!response.delayMs) return answer();
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        answer();
      }, response.delayMs);
      this.timers.add(timer);
    });
  }
}

/** Verifies a received request's Standard Webhooks headers with the `standardwebhooks` package (throws when they do not verify). */
export function verifyStandardWebhook(request: ReceivedWebhook, secret: string): unknown {
  const header = (name: string) => String(request.headers[name] ?? '');
  return new Webhook(secret).verify(request.body, {
    'webhook-id': header('webhook-id'),
    'webhook-timestamp': header('webhook-timestamp'),
    'webhook-signature': header('webhook-signature'),
  });
}

/**
 * Whether one of the `X-Webhook-Signature` entries is the HMAC-SHA256 of
 * `{X-Webhook-Timestamp}.{body}` keyed with the secret string, as a receiver would check it.
 */
export function verifyPlainSignature(request: ReceivedWebhook, secret: string): boolean {
  const timestamp = String(request.headers['x-webhook-timestamp'] ?? '');
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`);
  return String(request.headers['x-webhook-signature'] ?? '')
    .split(',')
    .some((signature) => signature.length === expected.length && timingSafeEqual(Buffer.from(signature), expected));
}
