// Domain errors are part of the contracts (RPC errors carry the same codes); re-exported here for HTTP code.
export { DomainError, NotFoundError, AuthenticationError, AuthorizationDeniedError, AuthorizationUnavailableError, ValidationError } from '@lp/contracts';
