/** RFC 9457 problem details as every HTTP error and RPC error of the fleet carries them. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  correlationId?: string;
  instance?: string;
  errors?: Record<string, string[]>;
}

export const ProblemCodes = {
  authorizationDenied: 'Authorization.Denied',
  authorizationUnavailable: 'Authorization.Unavailable',
  unauthenticated: 'Authentication.Required',
  validationFailed: 'Validation.Failed',
  notFound: 'NotFound',
  rateLimited: 'RateLimited',
  timeout: 'RequestTimeout',
  internal: 'InternalError',
  unavailable: 'ServiceUnavailable',
} as const;
