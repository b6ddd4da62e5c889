// Plain error classes with stable codes: no Nest, no I/O, so every service and the RPC layer share them.
/**
 * A failure the client can act on: a stable `code` clients key on, the HTTP status it maps to, and a
 * message safe to show. The global problem filter (and the RPC error mapping) turn it into RFC 9457
 * problem details. Services subclass it per feature (`role.errors.ts`).
 */
export class DomainError extends Error {
  /** Set on failures worth retrying (an outage): the HTTP answer carries `Retry-After` with it. */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('NotFound', 404, `${what} was not found.`);
  }
}

export class AuthenticationError extends DomainError {
  constructor(message = 'A valid bearer token is required.') {
    super('Authentication.Required', 401, message);
  }
}

export class AuthorizationDeniedError extends DomainError {
  constructor(message = 'The caller is not permitted to perform this action.') {
    super('Authorization.Denied', 403, message);
  }
}

/**
 * The decision could not be made (authz-decision unreachable or timed out, its policy store or audit
 * unavailable, the resource facts unreadable). Still fail-closed, since the handler does not run,
 * but told apart from a denial, so a client can retry instead of concluding it lacks the right.
 */
export class AuthorizationUnavailableError extends DomainError {
  override readonly retryAfterSeconds = 1;

  constructor(message = 'The authorization decision could not be made right now; retry shortly.') {
    super('Authorization.Unavailable', 503, message);
  }
}

export class ValidationError extends DomainError {
  constructor(errors: Record<string, string[]>, message = 'The request is not valid.') {
    super('Validation.Failed', 400, message, errors);
  }
}
