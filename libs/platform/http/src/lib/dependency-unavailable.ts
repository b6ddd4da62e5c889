import { DomainError, ProblemCodes } from '@lp/contracts';
import { CacheUnavailableError } from '@lp/platform/cache';

/**
 * The database could not be reached or dropped the connection mid-request. Retryable: the request's
 * transaction did not commit (a COMMIT that fails is rolled back by PostgreSQL), so nothing is
 * half-written; the client is told to retry rather than shown an internal error.
 */
export class DatabaseUnavailableError extends DomainError {
  override readonly retryAfterSeconds = 1;

  constructor() {
    super('Database.Unavailable', 503, 'The database is unavailable right now; nothing was changed. Retry shortly.');
  }
}

/** A network dependency refused or dropped the connection (the error names no database). Retryable. */
export class DependencyUnavailableError extends DomainError {
  override readonly retryAfterSeconds = 1;

  constructor() {
    super(ProblemCodes.unavailable, 503, 'A service this request needs is unavailable right now. Retry shortly.');
  }
}

// SQLSTATE class 08 (connection exception), 57P01-57P03 (server shutting down or starting),
// 53300 (too many connections): the server, not the statement, is the problem.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
// What pg and TypeORM say when the connection is gone (they set no code on these).
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /connection is closed/i,
  /Client has encountered a connection error and is not queryable/i,
  /timeout exceeded when trying to connect/i,
  /Cannot use a pool after calling end/i,
];
const UNAVAILABLE_TYPEORM_ERRORS = new Set(['QueryRunnerAlreadyReleasedError', 'ConnectionIsNotSetError', 'CannotExecuteNotConnectedError']);

/** Whether `error` (pg's, TypeORM's or one wrapping them) means the database is unreachable. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const e = error as { name?: unknown; code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof e.name === 'string' && UNAVAILABLE_TYPEORM_ERRORS.has(e.name)) return true;
  if (typeof e.code === 'string' && UNAVAILABLE_SQLSTATE.test(e.code)) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(e.message as string))) return true;
  return isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * The retryable 503 an infrastructure failure deserves, or undefined for anything else: the
 * database gone (Database.Unavailable), the cache unreachable where a caller could not fall back to
 * the store (a revision bump: ServiceUnavailable), or a connection to some dependency refused or
 * reset (ServiceUnavailable; a refused connection does not say which dependency it was, and its
 * address is not for the client).
 */
export function unavailableDependency(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return undefined;
  if (isDatabaseUnavailable(error)) return new DatabaseUnavailableError();
  if (error instanceof CacheUnavailableError) return new DependencyUnavailableError();
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return new DependencyUnavailableError();
  return undefined;
}
