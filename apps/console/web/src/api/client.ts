import { ApiProblem, ProblemBody } from './problem';

/** One page of a platform list route (zero-based `pageIndex`, `pageSize` 1..100). */
export interface Page<T> {
  items: T[];
  pageIndex: number;
  pageSize: number;
  totalCount: number;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Extra headers (an `Idempotency-Key`, say). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * The platform's public HTTP API as the signed-in user: every call carries the user's bearer token,
 * so every screen obeys the same authorization as the API itself (there is no other way in). Errors
 * come back as `ApiProblem`s built from the answer's problem+json.
 */
export class ApiClient {
  constructor(
    private readonly token: string,
    private readonly baseUrl = '',
    /** Called when the API says the token is no longer accepted (401): the console signs out. */
    private readonly onUnauthorized: () => void = () => undefined,
  ) {}

  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
    return this.request<T>('GET', path, { query, signal });
  }

  post<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('POST', path, { ...options, body });
  }

  put<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('PUT', path, { ...options, body });
  }

  patch<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('PATCH', path, { ...options, body });
  }

  delete<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('DELETE', path, options);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json, application/problem+json', Authorization: `Bearer ${this.token}`, ...options.headers };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}${queryString(options.query)}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
    const text = await response.text();
    const body: unknown = text ? parseJson(text) : undefined;
    if (!response.ok) {
      if (response.status === 401) this.onUnauthorized();
      throw new ApiProblem(response.status, typeof body === 'object' && body !== null ? (body as ProblemBody) : { detail: text || undefined });
    }
    return body as T;
  }
}

export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { detail: text };
  }
}
