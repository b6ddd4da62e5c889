import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** OTLP span kinds (opentelemetry-proto `Span.SpanKind`). */
export const OtlpSpanKind = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

/** One span as the receiver decoded it, with the `service.name` of the process that exported it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a trace's root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** 2 is an error (opentelemetry-proto `Status.StatusCode`). */
  statusCode: number;
}

interface OtlpAnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number };
}
interface OtlpTraceRequest {
  resourceSpans?: Array<{ resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

function valueOf(value: OtlpAnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? '';
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
}

/**
 * A loopback OTLP/HTTP trace receiver: what a collector is to the fleet's exporters. It takes the
 * JSON encoding (`POST /v1/traces`, `application/json`, what `@opentelemetry/exporter-trace-otlp-http`
 * sends), decodes every span with its process's `service.name`, and answers 200 so the exporters
 * never retry. Anything else is a 415 the test would see as missing spans.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Export requests refused (not JSON, not /v1/traces): a test asserts there were none. */
  readonly refused: string[] = [];
  private server?: Server;

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      void bodyOf(req)
        .then((text) => {
          if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
            this.refused.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
            res.writeHead(415).end();
            return;
          }
          this.accept(JSON.parse(text) as OtlpTraceRequest);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        })
        .catch((error: unknown) => {
          this.refused.push(String(error));
          res.writeHead(400).end();
        });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    return this;
  }

  /** `OTEL_EXPORTER_OTLP_ENDPOINT` for the processes that export here. */
  get endpoint(): string {
    if (!this.server) throw new Error('the OTLP receiver is not started');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(request: OtlpTraceRequest): void {
    for (const resourceSpans of request.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            statusCode: span.status?.code ?? 0,
          });
        }
      }
    }
  }
}
