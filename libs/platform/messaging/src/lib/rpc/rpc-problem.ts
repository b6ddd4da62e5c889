import { DomainError, ProblemCodes, ProblemDetails } from '@lp/contracts';
import { problem, toProblem } from '@lp/platform/http';
import { types } from 'node:util';

/** A problem object as it travels (plain data); an Error with `code` and `status` is not one yet. */
export function isProblemDetails(value: unknown): value is ProblemDetails {
  const p = value as Partial<ProblemDetails> | null;
  return typeof p === 'object' && p !== null && !(p instanceof Error) && !types.isNativeError(p) && typeof p.status === 'number' && typeof p.code === 'string';
}

interface CodedError {
  code: string;
  status: number;
  message?: unknown;
  errors?: Record<string, string[]>;
}

/** An error thrown on purpose by code that is not a DomainError: a string `code` and an HTTP-like `status`. */
function isCodedError(error: unknown): error is CodedError {
  const e = error as Partial<Record<keyof CodedError, unknown>> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.code === 'string' &&
    typeof e.status === 'number' &&
    Number.isInteger(e.status) &&
    e.status >= 400 &&
    e.status <= 599
  );
}

/**
 * What a failed RPC handler sends back: the same problem object an HTTP client would get
 * (ARCHITECTURE.md, Errors). A problem already on the wire (a downstream RPC error re-thrown) passes
 * through; an error naming its `code` and `status` keeps them; anything else becomes a 500 with no
 * internals, since the message of an unexpected error may hold SQL, paths or secrets.
 */
export function toRpcProblem(error: unknown, correlationId?: string): ProblemDetails {
  if (isProblemDetails(error)) return { ...error, correlationId: error.correlationId ?? correlationId };
  if (!(error instanceof DomainError) && isCodedError(error)) {
    // Not one of our domain errors: its message is only trusted below 500.
    const detail = error.status < 500 && typeof error.message === 'string' ? error.message : undefined;
    return problem(error.status, error.code, detail, { correlationId, ...(error.errors ? { errors: error.errors } : {}) });
  }
  // DomainError, Nest's HttpException (guards, pipes), an RpcError's problem, or a generic 500.
  return toProblem(error, correlationId);
}

/** The problem for a failure nothing explains (Nest's bare `{ status: 'error', message }`). */
export function internalRpcProblem(correlationId?: string): ProblemDetails {
  return problem(500, ProblemCodes.internal, 'An unexpected error occurred.', { correlationId });
}
