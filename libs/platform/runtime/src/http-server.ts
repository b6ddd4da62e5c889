import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { problem, PROBLEM_CONTENT_TYPE } from '@lp/platform/http/plain';

/**
 * Node answers a request its HTTP parser refuses (headers over the size limit, a malformed request
 * line) with a bare status and an empty body, before any middleware runs. These answer with the
 * same problem+json as every other error, with a correlation id, then close the connection.
 */
function answerClientError(error: NodeJS.ErrnoException & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const correlationId = randomUUID();
  const body = JSON.stringify(
    problem(
      status,
      tooLarge ? 'RequestHeaderFieldsTooLarge' : 'BadRequest',
      tooLarge ? 'The request headers (or URL) are too large.' : 'The request could not be parsed as HTTP.',
      {
        correlationId,
      },
    ),
  );
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Correlation-Id: ${correlationId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export interface PlatformHttpServer extends Server {
  /**
   * Graceful stop: refuses new connections; lets the requests in flight finish, each answered with
   * `Connection: close`; answers a request that arrives on an open keep-alive connection with 503
   * `ServiceUnavailable`, `Retry-After` and `Connection: close`; leaves an idle keep-alive connection
   * open until the client sends on it or the keep-alive timeout the server announced to the client
   * (`Keep-Alive: timeout=5`) ends it; after `boundMs`, closes whatever is left. Resolves once every
   * connection is closed.
   *
   * It never closes an idle connection early: a client may be sending on it at that very moment,
   * and its request would be reset unanswered (a POST with no way to know whether it ran). Only the
   * announced timeout is safe, because clients stop reusing a connection before it.
   */
  drain(boundMs: number): Promise<void>;
}

/** The HTTP server every service (and the standalone process) listens with. */
export function createHttpServer(handler: RequestListener): PlatformHttpServer {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (draining) return refuseWhileDraining(res);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    handler(req, res);
  }) as PlatformHttpServer;
  server.on('clientError', answerClientError);
  server.drain = async (boundMs: number) => {
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    // net's close, not http's: since Node 19 http.Server#close() also closes idle connections.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    const deadline = setTimeout(() => server.closeAllConnections(), boundMs);
    try {
      await closed;
    } finally {
      clearTimeout(deadline);
    }
  };
  return server;
}

function refuseWhileDraining(res: ServerResponse): void {
  const correlationId = randomUUID();
  res.shouldKeepAlive = false;
  const body = JSON.stringify(problem(503, 'ServiceUnavailable', 'This instance is shutting down; retry on another.', { correlationId }));
  res.writeHead(503, {
    'Content-Type': PROBLEM_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': '1',
    'X-Correlation-Id': correlationId,
  });
  res.end(body);
}
