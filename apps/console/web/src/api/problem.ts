/**
 * An RFC 9457 problem answered by a platform API. The console shows `detail` (the API's own words)
 * and, for validation failures, the message of each field next to it.
 */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  code?: string;
  detail?: string;
  correlationId?: string;
  errors?: Record<string, string[]>;
}

export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly fieldErrors: Record<string, string[]>;
  readonly correlationId?: string;

  constructor(status: number, body: ProblemBody) {
    const detail = body.detail ?? body.title ?? `The request failed with status ${status}.`;
    super(detail);
    this.name = 'ApiProblem';
    this.status = status;
    this.code = body.code ?? `Http.${status}`;
    this.detail = detail;
    this.fieldErrors = body.errors ?? {};
    this.correlationId = body.correlationId;
  }

  /** The messages of one field (`name`, `rules[0].expression`, ...), for the form that sent it. */
  field(path: string): string[] {
    return this.fieldErrors[path] ?? [];
  }
}

/** Any thrown value as the problem the console shows (network failures included). */
export function asProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiProblem(0, { code: 'Console.NetworkError', detail: `The platform could not be reached: ${message}` });
}
