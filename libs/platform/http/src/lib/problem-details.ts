import { ProblemDetails } from '@lp/contracts';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * Builds an RFC 9457 problem object. `type` is a stable URN derived from the code so clients may
 * key on either; `title` is the HTTP reason phrase, `detail` the human explanation.
 */
export function problem(
  status: number,
  code: string,
  detail?: string,
  extra: Partial<Pick<ProblemDetails, 'correlationId' | 'instance' | 'errors'>> = {},
): ProblemDetails {
  return {
    type: `urn:problem:${code}`,
    title: TITLES[status] ?? 'Error',
    status,
    ...(detail ? { detail } : {}),
    code,
    ...extra,
  };
}
