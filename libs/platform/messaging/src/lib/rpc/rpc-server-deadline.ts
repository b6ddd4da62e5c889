import { WritePacket } from '@nestjs/microservices';
import { DeadlineScope, RequestDeadline, rpcRequestsExpired } from '@lp/platform/observability';

type Respond = (data: WritePacket) => Promise<unknown> | void;

/**
 * Whether a request's caller has already given up: its deadline (`x-deadline`) passed before the
 * server got to it (it waited in a queue or a prefetch buffer, or the process was busy). Such a
 * request is acknowledged and dropped without running or answering: nobody waits for the answer,
 * and every abandoned request skipped is work not taken from the ones still waited for, so a
 * backlog drains at the speed of dropping instead of the speed of working. Counted per service and
 * pattern (`rpc_requests_expired_total`).
 */
export function callerGaveUp(service: string, pattern: string, deadlineAt: number | undefined): boolean {
  if (deadlineAt === undefined || deadlineAt > Date.now()) return false;
  rpcRequestsExpired.inc({ service, pattern });
  return true;
}

/**
 * Runs a request's handling inside its deadline scope, so the RPCs its handler makes carry what is
 * left of it; the scope stops carrying a deadline once the final reply is sent (work the handler
 * leaves running is nobody's request). A request without a deadline runs as before.
 */
export function handleWithinDeadline(deadlineAt: number | undefined, respond: Respond, handle: (respond: Respond) => void): void {
  if (deadlineAt === undefined) return handle(respond);
  const scope = new DeadlineScope(deadlineAt);
  const answering: Respond = (packet) => {
    if (packet.isDisposed || packet.err !== undefined) scope.answered = true;
    return respond(packet);
  };
  RequestDeadline.run(scope, () => handle(answering));
}
