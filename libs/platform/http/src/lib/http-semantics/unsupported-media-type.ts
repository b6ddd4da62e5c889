import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { ProblemCodes } from '@lp/contracts';
import { correlationIdOf } from '@lp/platform/observability/plain';
import { problem } from '../problem-details';
import { sendProblem } from './method-not-allowed';
import { ExpressRouter, methodsAt, requestPath } from './route-table';

/** The one media type request content is read as (what the platform's body parser reads). */
export const JSON_CONTENT_TYPE = 'application/json';

/** The methods whose content means something to a route (RFC 9110; QUERY, the safe read with a body). */
const CONTENT_METHODS = new Set(['POST', 'PUT', 'PATCH', 'QUERY']);

/** Content is there when the client says it sends some: a non-zero length, or chunks (RFC 9112 §6.3). */
function carriesContent(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0;
}

/**
 * In front of the body parser: content on a POST, PUT, PATCH or QUERY that some route of `router`
 * answers, declared as anything but `application/json` (or not declared at all), is a 415
 * `UnsupportedMediaType` problem instead of a body the parser skips and the route reads as
 * missing (a 400 that blamed the fields, or a 200 that ignored the query). A request no route
 * answers is left to the 404 or 405; a charset JSON cannot be in is the parser's 415.
 */
export function requireJsonContent(router: ExpressRouter) {
  return (req: Request, res: ServerResponse, next: () => void): void => {
    if (!CONTENT_METHODS.has(req.method ?? '') || !carriesContent(req)) return next();
    const declared = req.headers['content-type']?.split(';')[0]?.trim().slice(0, 100);
    // Express's own media type test, the very one the JSON body parser applies.
    if (req.is(JSON_CONTENT_TYPE)) return next();
    const path = requestPath(req);
    if (!methodsAt(router, path).includes(req.method ?? '')) return next();
    sendProblem(
      res,
      problem(
        415,
        ProblemCodes.unsupportedMediaType,
        declared
          ? `${req.method} ${path} takes ${JSON_CONTENT_TYPE} content, not ${declared}.`
          : `${req.method} ${path} takes ${JSON_CONTENT_TYPE} content; this request's content has no Content-Type.`,
        { correlationId: correlationIdOf(req), instance: path },
      ),
      // RFC 9110 §15.5.16 points to the accepted formats; Accept-Patch (RFC 5789) and Accept-Post name them for those methods.
      req.method === 'PATCH' ? { 'Accept-Patch': JSON_CONTENT_TYPE } : req.method === 'POST' ? { 'Accept-Post': JSON_CONTENT_TYPE } : {},
    );
  };
}
