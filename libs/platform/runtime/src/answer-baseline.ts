import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from '@lp/platform/http/plain';
import { runCorrelated } from '@lp/platform/observability/plain';

/**
 * What every answer of a platform server carries, set before anything can answer: the security
 * headers (`SECURITY_HEADERS`) and the correlation id (`X-Correlation-Id`, and the correlation
 * context the problem bodies read it from). The first thing a service app, the standalone
 * dispatcher and the console's app run, so no route, static file, probe or 404 escapes it. A
 * route may still narrow a header after it (the console adds its OIDC issuer to the policy).
 */
export function answerBaseline(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  runCorrelated(req, res, next);
}

/** `answerBaseline` in front of a whole listener (a server that is not an Express app). */
export function withAnswerBaseline(listener: RequestListener): RequestListener {
  return (req, res) => answerBaseline(req, res, () => listener(req, res));
}
