import { DomainError } from '@lp/contracts';

/**
 * The audit writer cannot take another record (its backlog is at its bound, or it is closed).
 * The decision service fails closed: a decision that cannot be audited is not given; its
 * `failure` is this error's `code`, `AuditUnavailable`. 503 if it ever reaches a problem filter.
 */
export class AuditUnavailableError extends DomainError {
  constructor(reason: string) {
    super('AuditUnavailable', 503, `Decision audit unavailable: ${reason}.`);
  }
}
