import { createServer, type RequestListener, type Server } from 'node:http';
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
    problem(status, tooLarge ? 'RequestHeaderFieldsTooLarge' : 'BadRequest', tooLarge ? 'The request headers (or URL) are too large.' : 'The request could not be parsed as HTTP.', {
      correlationId,
    }),
  );
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Correlation-Id: ${correlationId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The HTTP server every service (and the standalone process) listens with. */
export function createHttpServer(handler: RequestListener): Server {
  const server = createServer(handler);
  server.on('clientError', answerClientError);
  return server;
}
