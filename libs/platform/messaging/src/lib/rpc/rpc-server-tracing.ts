import { WritePacket } from '@nestjs/microservices';
import { SpanKind, Tracing } from '@lp/platform/observability';

type Respond = (data: WritePacket) => Promise<unknown> | void;

/**
 * Runs a request's handling inside a server span that continues the caller's trace (the request's
 * `traceparent` header), so the guard's decision call, the handler's queries and the events it
 * writes are its children. The span ends with the final reply packet, failed for a problem answer.
 * While tracing is off, `handle` runs as it is.
 */
export function handleInServerSpan(
  service: string,
  pattern: string,
  transport: string,
  headers: Record<string, unknown> | undefined,
  respond: Respond,
  handle: (respond: Respond) => void,
): void {
  if (!Tracing.enabled) return handle(respond);
  const attributes = { 'rpc.system': transport, 'rpc.method': pattern, 'rpc.service': service };
  Tracing.within(pattern, { kind: SpanKind.SERVER, parent: headers ?? {}, attributes }, (end) =>
    handle((packet) => {
      if (packet.err !== undefined && packet.err !== null) end(packet.err);
      else if (packet.isDisposed) end();
      return respond(packet);
    }),
  );
}
