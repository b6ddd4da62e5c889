import { ProblemCodes, ProblemDetails } from '@lp/contracts';
import { problem } from '@lp/platform/http';
import { NO_MESSAGE_HANDLER } from '@nestjs/microservices/constants';
import { types } from 'node:util';
import { internalRpcProblem, isProblemDetails } from './rpc-problem';

/**
 * Why an RPC call failed. Every subclass carries a problem object, so an error that crosses a
 * second hop (A calls B, B's call to C times out) reaches A's caller with a meaningful status and
 * code instead of a bare 500.
 */
export abstract class RpcError extends Error {
  abstract readonly problem: ProblemDetails;

  protected constructor(
    readonly pattern: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No answer within the call's timeout; the handler may or may not have run. */
export class RpcTimeoutError extends RpcError {
  readonly problem: ProblemDetails;

  constructor(
    pattern: string,
    readonly timeoutMs: number,
  ) {
    super(pattern, `RPC ${pattern} got no answer within ${timeoutMs} ms`);
    this.problem = problem(504, ProblemCodes.timeout, 'A service did not answer in time.');
  }
}

/**
 * The request in progress ran out of time (`RequestDeadline`): not sent because nothing was left of
 * its budget (`timeoutMs` 0), or sent with what was left and no answer came within it. A timeout
 * like any other for the caller (no answer in time), but the caller's deadline is the cause, not a
 * slow or absent callee: a caller that tracks the callee's health (the guard's outage state) does
 * not count it against the callee.
 */
export class RpcDeadlineExceededError extends RpcTimeoutError {
  constructor(pattern: string, timeoutMs = 0) {
    super(pattern, timeoutMs);
    this.message =
      timeoutMs === 0
        ? `RPC ${pattern} not sent: the request's deadline has passed`
        : `RPC ${pattern} got no answer within ${timeoutMs} ms, all that was left of the request's deadline`;
  }
}

/** The request could not be delivered or the answer could not be received (broker down, client closed). */
export class RpcTransportError extends RpcError {
  readonly problem: ProblemDetails;

  constructor(pattern: string, reason: string, cause?: unknown) {
    super(pattern, `RPC ${pattern} failed in transport: ${reason}`, { cause });
    this.problem = problem(503, ProblemCodes.unavailable, 'A service could not be reached.');
  }
}

/** The remote handler answered with an error; `problem` is what it sent (RFC 9457 shape). */
export class RpcRemoteError extends RpcError {
  constructor(
    pattern: string,
    readonly problem: ProblemDetails,
  ) {
    super(pattern, `RPC ${pattern} failed remotely: ${problem.status} ${problem.code}${problem.detail ? ` (${problem.detail})` : ''}`);
  }
}

export const RPC_NO_HANDLER_CODE = 'Rpc.NoHandler';

/** Also true for errors made in another realm (Node core errors seen from a Jest VM context). */
function isError(value: unknown): value is Error {
  return value instanceof Error || types.isNativeError(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Sorts whatever a Nest client proxy emitted as an error. A reply's `err` was JSON on the wire, so
 * it arrives as a plain object or string: a remote error. The proxy's own failures (connection
 * refused or lost, channel closed) are Error instances, `{ err: Error }` events or strings of its
 * own: transport errors, on which callers fail closed.
 */
export function toRpcError(raw: unknown, pattern: string): RpcError {
  if (raw instanceof RpcError) return raw;
  if (isProblemDetails(raw)) return new RpcRemoteError(pattern, raw);
  if (raw === NO_MESSAGE_HANDLER) {
    return new RpcRemoteError(pattern, problem(501, RPC_NO_HANDLER_CODE, `No handler is registered for ${pattern}.`));
  }
  const wrapped = isPlainObject(raw) ? raw['err'] : undefined;
  if (isPlainObject(raw) && !isError(wrapped)) return new RpcRemoteError(pattern, internalRpcProblem());
  const cause = isError(wrapped) ? wrapped : raw;
  return new RpcTransportError(pattern, isError(cause) ? cause.message : String(cause), raw);
}
