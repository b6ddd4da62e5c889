import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { problem, PROBLEM_CONTENT_TYPE, SECURITY_HEADERS } from '@lp/platform/http';
import { correlationIdOf, markArrival } from '@lp/platform/observability';
import { AdmissionController } from './admission-controller';

/**
 * Never shed: the probes must tell the truth about a loaded process (a liveness probe refused for
 * load would get a busy instance restarted, a readiness probe refused would take it out of
 * rotation for being busy), and the metrics are how an operator sees the load.
 */
export const UNSHED_PATHS: ReadonlySet<string> = new Set(['/health/live', '/health/ready', '/metrics']);

/** What a refused client is told to wait before trying again. */
export const ADMISSION_RETRY_AFTER_SECONDS = 1;

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query < 0 ? raw : raw.slice(0, query);
}

/**
 * Puts admission control in front of a process's HTTP listener, before anything else runs for a
 * request (body parsing, authentication, the decision): an admitted request goes on to `listener`
 * with its arrival time recorded (its deadline counts from it, queue wait included); a refused one
 * is answered at once with 503 `ServiceUnavailable`, `Retry-After` and problem+json, carrying the
 * security headers and correlation id every answer carries. The probes and `/metrics` bypass it.
 */
export function admitHttpRequests(listener: RequestListener, admission: AdmissionController): RequestListener {
  return (req, res) => {
    if (UNSHED_PATHS.has(pathOf(req.url))) return listener(req, res);
    const arrivedAt = Date.now();
    admission.admit(
      (ticket) => {
        // The client left while the request waited: nothing to work for.
        if (req.socket.destroyed) return ticket.release('abandoned');
        res.once('close', () =>
          ticket.release(!res.writableFinished ? 'abandoned' : res.statusCode === 503 || res.statusCode === 504 ? 'dropped' : 'answered'),
        );
        markArrival(req, arrivedAt);
        listener(req, res);
      },
      (outcome) => refuse(req, res, outcome),
    );
  };
}

function refuse(req: IncomingMessage, res: ServerResponse, outcome: 'refused' | 'expired'): void {
  if (req.socket.destroyed) return;
  const correlationId = correlationIdOf(req);
  const detail =
    outcome === 'refused'
      ? 'This instance is at capacity; retry after the time given in Retry-After.'
      : 'This instance could not take the request in time; retry after the time given in Retry-After.';
  const body = JSON.stringify(problem(503, 'ServiceUnavailable', detail, { correlationId }));
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  res.writeHead(503, {
    'Content-Type': PROBLEM_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': String(ADMISSION_RETRY_AFTER_SECONDS),
    'X-Correlation-Id': correlationId,
  });
  res.end(body);
}
