import type express from 'express';
import { problem, PROBLEM_CONTENT_TYPE } from '@lp/platform/http/plain';
import { correlationIdOf } from '@lp/platform/observability/plain';

/**
 * The error handler of the static file routes (the API explorer's assets, the admin console):
 * `serve-static` and Express refuse a traversal (`..%2f`, 403), a NUL byte or a malformed escape
 * (400) and a missing file (404) with errors carrying that status; they are the client's mistakes
 * and are answered as such, in problem+json. Anything else is ours: 500.
 */
export function staticFilesProblem(
  error: { status?: number; statusCode?: number },
  req: express.Request,
  res: express.Response,
  _next: express.NextFunction,
): void {
  const given = error.status ?? error.statusCode ?? 500;
  const path = req.originalUrl.split('?')[0];
  const [status, code, detail]: [number, string, string | undefined] =
    given === 404 || given === 403
      ? // A refused traversal says no more than a missing file does.
        [404, 'NotFound', `No route for ${path}.`]
      : given >= 400 && given < 500
        ? [400, 'BadRequest', 'The request path is malformed.']
        : [500, 'InternalError', undefined];
  res
    .status(status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(problem(status, code, detail, { correlationId: correlationIdOf(req), instance: path }));
}
