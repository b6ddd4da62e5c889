import { stdSerializers } from 'pino';

/**
 * What the logs keep of a failed statement: the SQL text, the SQLSTATE, the server's message and
 * the names of what it broke. Never its values: TypeORM's `QueryFailedError` carries the bound
 * `parameters` (an INSERT's row, secret ciphertexts included) and PostgreSQL's `detail` and `where`
 * quote them ("Failing row contains (...)", "Key (email)=(...) already exists").
 */
const STATEMENT_ERROR_FIELDS = new Set(['type', 'message', 'stack', 'code', 'query', 'severity', 'schema', 'table', 'column', 'constraint', 'routine']);

type Serialized = Record<string, unknown>;

const isRecord = (value: unknown): value is Serialized => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `QueryFailedError` (it has the statement) or the driver's own error (pg's `DatabaseError`: a severity and a SQLSTATE). */
function isStatementError(error: Serialized): boolean {
  return typeof error['query'] === 'string' || 'parameters' in error || (typeof error['severity'] === 'string' && typeof error['code'] === 'string');
}

function withoutStatementValues(error: Serialized, depth: number): Serialized {
  if (isStatementError(error)) return Object.fromEntries(Object.entries(error).filter(([key]) => STATEMENT_ERROR_FIELDS.has(key)));
  if (depth >= 4) return error;
  // A statement error may be the cause (or the `driverError`, `originalError`, ...) of another.
  return Object.fromEntries(
    Object.entries(error).map(([key, value]) => [key, isRecord(value) && 'message' in value ? withoutStatementValues(value, depth + 1) : value]),
  );
}

/**
 * The fleet's serializer for the `err` of a log entry: pino's own (type, message, stack, cause and
 * the error's enumerable fields), except that a failed statement is kept by its text and error code
 * only, wherever it sits in the error. The one place, so no log line anywhere prints a parameter.
 */
export function loggedError(error: unknown): unknown {
  // pino-http hands its serializers pino's serialization of the error; a plain pino logger, the error.
  const serialized: unknown = error instanceof Error ? stdSerializers.err(error) : error;
  return isRecord(serialized) ? withoutStatementValues(serialized, 0) : serialized;
}
