import { WritePacket } from '@nestjs/microservices';
import { rpcHandlerDuration } from '@lp/platform/observability';

type Respond = (data: WritePacket) => Promise<unknown> | void;

/**
 * Wraps a request's `respond` so its final reply records `rpc_handler_duration_seconds` for the
 * service, pattern and outcome (`ok`, or `error` for any problem answer). Timed in the transport,
 * from delivery to the last reply packet, so a request refused by a guard or a pipe counts too,
 * as the HTTP metrics middleware counts a 401/403, and no interceptor has to run per message.
 */
export function timedRespond(service: string, pattern: string, respond: Respond): Respond {
  const started = process.hrtime.bigint();
  let recorded = false;
  return (packet) => {
    if (!recorded && (packet.isDisposed || packet.err !== undefined)) {
      recorded = true;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      rpcHandlerDuration.observe({ service, pattern, outcome: packet.err === undefined || packet.err === null ? 'ok' : 'error' }, seconds);
    }
    return respond(packet);
  };
}
