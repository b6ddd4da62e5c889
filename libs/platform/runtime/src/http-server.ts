import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { problem, PROBLEM_CONTENT_TYPE } from '@lp/platform/http';

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
   * Graceful stop: refuses new connections; closes idle keep-alive connections at once; lets the
   * requests in flight finish, each answered with `Connection: close`; answers a request that
   * still arrives on an open connection with 503 and `Connection: close`; after `boundMs`, closes
   * whatever is left. Resolves once every connection is closed.
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
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
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
