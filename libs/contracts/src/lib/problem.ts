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
  /** A path that exists, asked with a method it does not answer; `Allow` lists the ones it does. */
  methodNotAllowed: 'MethodNotAllowed',
  /** Request content in a format the route does not read (anything but application/json, or an unsupported charset). */
  unsupportedMediaType: 'UnsupportedMediaType',
  rateLimited: 'RateLimited',
  timeout: 'RequestTimeout',
  internal: 'InternalError',
  unavailable: 'ServiceUnavailable',
} as const;
