/** SQLSTATE codes the services act on (PostgreSQL, and PGlite, which speaks the same protocol). */
export const PgErrorCode = {
  UniqueViolation: '23505',
  ForeignKeyViolation: '23503',
} as const;

/**
 * The SQLSTATE of a failed query: TypeORM wraps the driver's error (`driverError`), a bare `pg`
 * error carries it as `code`. Undefined when the error is not a database error.
 */
export function sqlState(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | null | undefined;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
