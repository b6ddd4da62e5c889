import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ProblemCodes, ProblemDetails } from '@lp/contracts';
import { CorrelationContext } from '@lp/platform/observability';
import type { Request, Response } from 'express';
import { Observable, throwError } from 'rxjs';
import { unavailableDependency } from './dependency-unavailable';
import { DomainError } from './domain-error';
import { problem, PROBLEM_CONTENT_TYPE } from './problem-details';

/** Codes for the errors Nest or its middleware raise on their own (not our DomainErrors). */
const HTTP_STATUS_CODES: Record<number, string> = {
  400: ProblemCodes.validationFailed,
  401: ProblemCodes.unauthenticated,
  403: ProblemCodes.authorizationDenied,
  404: ProblemCodes.notFound,
  405: ProblemCodes.methodNotAllowed,
  408: ProblemCodes.timeout,
  413: 'PayloadTooLarge',
  415: ProblemCodes.unsupportedMediaType,
  429: ProblemCodes.rateLimited,
  503: ProblemCodes.unavailable,
  504: ProblemCodes.timeout,
};

/**
 * Turns anything thrown into a problem object. Exported separately so the RPC layer renders the
 * very same shape for errors crossing the broker.
 */
export function toProblem(error: unknown, correlationId?: string): ProblemDetails {
  error = unavailableDependency(error) ?? error;
  if (error instanceof DomainError) {
    return problem(error.status, error.code, error.message, {
      correlationId,
      ...(error.errors ? { errors: error.errors } : {}),
    });
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const body = error.getResponse();
    // Nest's own messages (route not found, payload too large, throttled) are safe to show; 5xx are not.
    const detail =
      status >= 500
        ? undefined
        : typeof body === 'string'
          ? body
          : typeof (body as { message?: unknown }).message === 'string'
            ? (body as { message: string }).message
            : error.message;
    return problem(status, HTTP_STATUS_CODES[status] ?? (status >= 500 ? ProblemCodes.internal : `Http${status}`), detail, {
      correlationId,
    });
  }
  if (isProblemCarrier(error)) {
    return { ...error.problem, correlationId: error.problem.correlationId ?? correlationId };
  }
  return problem(500, ProblemCodes.internal, 'An unexpected error occurred.', { correlationId });
}

function isProblemCarrier(error: unknown): error is { problem: ProblemDetails } {
  const p = (error as { problem?: Partial<ProblemDetails> } | null)?.problem;
  return !!p && typeof p.status === 'number' && typeof p.code === 'string';
}

/** The one global HTTP exception filter of every service (ARCHITECTURE.md, Errors). */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  catch(error: unknown, host: ArgumentsHost): void | Observable<never> {
    if (host.getType() === 'rpc') {
      // RPC callers get the very same problem object, as the error of the answer stream.
      const rpcProblem = toProblem(error, CorrelationContext.current());
      if (rpcProblem.status === 503) this.logger.debug({ correlationId: rpcProblem.correlationId, code: rpcProblem.code }, 'dependency unavailable');
      else if (rpcProblem.status >= 500) this.logger.error({ err: error, correlationId: rpcProblem.correlationId }, 'Unhandled RPC error');
      return throwError(() => rpcProblem);
    }
    if (host.getType() !== 'http') throw error;
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const correlationId = CorrelationContext.current() ?? (request.headers['x-correlation-id'] as string | undefined);
    error = unavailableDependency(error) ?? error;
    const body = toProblem(error, correlationId);
    if (body.status === 503) {
      // An outage is not a bug: no stack, and no line per request at the default level (the
      // readiness probe and the guard report the dependency's state changes).
      this.logger.debug({ correlationId, path: request.url, code: body.code }, 'dependency unavailable');
    } else if (body.status >= 500) {
      // The client sees nothing internal; the log keeps what an operator needs.
      this.logger.error({ err: error, correlationId, path: request.url }, 'Unhandled error');
    }
    if (response.headersSent) return;
    if (error instanceof DomainError && error.retryAfterSeconds !== undefined) response.setHeader('Retry-After', String(error.retryAfterSeconds));
    response
      .status(body.status)
      .type(PROBLEM_CONTENT_TYPE)
      .send(JSON.stringify({ ...body, instance: request.originalUrl?.split('?')[0] }));
  }
}
