import type { IncomingMessage, ServerResponse } from 'node:http';
import { DeadlineScope, RequestDeadline } from './request-deadline';

const ARRIVED_AT = Symbol('arrivedAt');
type ArrivedRequest = IncomingMessage & { [ARRIVED_AT]?: number };

/** Records when a request reached the process (before any wait for admission), so its budget counts from then. */
export function markArrival(req: IncomingMessage, at: number = Date.now()): void {
  (req as ArrivedRequest)[ARRIVED_AT] = at;
}

/**
 * Runs the rest of an HTTP request inside its deadline scope: `budgetMs` from its arrival (the
 * StandardCommand timeout; a route with another policy sets its own through the timeout
 * interceptor). A middleware after the body parser, like the correlation middleware, because
 * the parser's stream events do not carry the async context of the listener that started it.
 * Once the response is closed the scope carries no deadline (`DeadlineScope.answered`).
 */
export function requestDeadlineMiddleware(budgetMs: number) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const startedAt = (req as ArrivedRequest)[ARRIVED_AT] ?? Date.now();
    const scope = new DeadlineScope(startedAt + budgetMs, startedAt);
    res.once('close', () => {
      scope.answered = true;
    });
    RequestDeadline.run(scope, next);
  };
}
