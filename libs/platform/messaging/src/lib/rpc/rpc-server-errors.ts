import { LoggerService } from '@nestjs/common';
import { ProblemDetails } from '@lp/contracts';
import { CorrelationContext } from '@lp/platform/observability';
import { Observable, catchError, throwError } from 'rxjs';
import { internalRpcProblem, isProblemDetails, toRpcProblem } from './rpc-problem';

/** Nest's BaseRpcExceptionFilter answer for an error it does not know; it has logged the original. */
function isNestGenericError(error: unknown): boolean {
  const e = error as { status?: unknown; message?: unknown } | null;
  return typeof e === 'object' && e !== null && e.status === 'error' && typeof e.message === 'string';
}

/**
 * The problem object that goes on the wire for a failed handler. Called by the RPC filter and, as
 * a safety net, by both RPC servers for errors no filter turned into a problem (a global HTTP
 * filter re-throws in the RPC context; without a reply the caller would only see a timeout).
 */
export function rpcWireError(error: unknown, logger: LoggerService): ProblemDetails {
  const correlationId = CorrelationContext.current();
  if (isProblemDetails(error)) return { ...error, correlationId: error.correlationId ?? correlationId };
  if (isNestGenericError(error)) return internalRpcProblem(correlationId);
  const problem = toRpcProblem(error, correlationId);
  // As over HTTP (ProblemDetailsFilter): an unavailable dependency is not a bug, no stack and no
  // line per request at the default level; any other 5xx is.
  if (problem.status === 503) logger.debug?.({ correlationId, code: problem.code }, 'RPC handler: dependency unavailable');
  else if (problem.status >= 500) logger.error({ err: error, correlationId }, 'RPC handler failed');
  return problem;
}

/** Errors of a handler's answer stream become problem objects before Nest serializes them. */
export function withProblemErrors<T>(stream$: Observable<T>, logger: LoggerService): Observable<T> {
  return stream$.pipe(catchError((error: unknown) => throwError(() => rpcWireError(error, logger))));
}

/** A handler promise that rejects (instead of erroring its stream) still gets an answer. */
export function answeringFailures<T>(produce: () => Promise<Observable<T>>, logger: LoggerService): () => Promise<Observable<T>> {
  return async () => {
    try {
      return await produce();
    } catch (error) {
      return throwError(() => rpcWireError(error, logger));
    }
  };
}
