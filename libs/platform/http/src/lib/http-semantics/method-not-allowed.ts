import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProblemCodes } from '@lp/contracts';
import { correlationIdOf } from '@lp/platform/observability/plain';
import { problem, PROBLEM_CONTENT_TYPE } from '../problem-details';
import { ExpressRouter, methodsAt, requestPath } from './route-table';

/** The methods of a read-only resource (a probe, the metrics, a static file): RFC 9110 has HEAD wherever GET is. */
export const READ_METHODS: readonly string[] = ['GET', 'HEAD'];

export function isReadMethod(req: IncomingMessage): boolean {
  return req.method === 'GET' || req.method === 'HEAD';
}

/** Sends a problem object as the whole answer (Node sends no body to a HEAD, the headers only). */
export function sendProblem(res: ServerResponse, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.statusCode = (body as { status: number }).status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** 405 `MethodNotAllowed` problem+json with the `Allow` header RFC 9110 §15.5.6 requires. */
export function answerMethodNotAllowed(req: IncomingMessage, res: ServerResponse, allowed: readonly string[]): void {
  const path = requestPath(req);
  sendProblem(
    res,
    problem(405, ProblemCodes.methodNotAllowed, `${path} answers ${allowed.join(', ')}, not ${req.method}.`, {
      correlationId: correlationIdOf(req),
      instance: path,
    }),
    { Allow: allowed.join(', ') },
  );
}

/**
 * The last handler before an Express app's 404: a path some route of `router` answers, asked with
 * a method none of them answers, is a 405 naming the methods that path has; a path no route has is
 * left to the 404. It runs only for requests no route took, so served requests pay nothing.
 */
export function methodNotAllowed(router: ExpressRouter) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const allowed = methodsAt(router, requestPath(req));
    if (allowed.length === 0 || allowed.includes(req.method ?? '')) return next();
    answerMethodNotAllowed(req, res, allowed);
  };
}

/** In front of a read-only subtree served by middleware (static files): any method but GET and HEAD is a 405. */
export function onlyReads(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (isReadMethod(req)) return next();
  answerMethodNotAllowed(req, res, READ_METHODS);
}
