import { DomainError } from '@lp/contracts';

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

// SQLSTATE class 08 (connection exception), 57P01-57P03 (server shutting down or starting),
// 53300 (too many connections): the server, not the statement, is the problem.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
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
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATE.test(e.code) || UNAVAILABLE_NODE_CODES.has(e.code))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(e.message as string))) return true;
  return isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}
