import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createHttpServer, PlatformHttpServer } from '../src/http-server';

/** A raw keep-alive HTTP/1.1 client connection, so the test sees exactly what the server does to it. */
class RawConnection {
  private data = '';
  readonly closed: Promise<void>;
  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk) => (this.data += chunk.toString()));
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  send(path: string): void {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n`);
  }

  /** Resolves with everything received once a full response (headers and body) has arrived. */
  async response(): Promise<string> {
    // The handlers answer `ok`; the refusal is a problem+json body with its Content-Length.
    for (let i = 0; i < 500 && !/\r\n\r\n(ok|\{[\s\S]*\}$)/.test(this.data); i++) await new Promise((r) => setTimeout(r, 10));
    const text = this.data;
    this.data = '';
    return text;
  }
}

describe('HTTP server drain on shutdown', () => {
  let server: PlatformHttpServer;
  let port: number;
  let releaseSlow: () => void;
  let slowStarted: Promise<void>;

  beforeEach(async () => {
    let markStarted!: () => void;
    slowStarted = new Promise((resolve) => (markStarted = resolve));
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    server = createHttpServer((req, res) => {
      if (req.url === '/slow') {
        markStarted();
        void slowGate.then(() => res.end('ok'));
        return;
      }
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(() => {
    releaseSlow();
    server.closeAllConnections();
    server.close();
  });

  it('keeps an idle keep-alive connection open during the drain and answers a request sent on it with 503, Retry-After and Connection: close', async () => {
    const idle = await RawConnection.open(port);
    idle.send('/fast');
    expect(await idle.response()).toMatch(/^HTTP\/1.1 200[\s\S]*Connection: keep-alive/i);

    const drained = server.drain(10_000);
    // A client that reuses its idle connection right after the signal must get an answer, not a reset.
    idle.send('/fast');
    const refused = await idle.response();
    expect(refused).toMatch(/^HTTP\/1.1 503/);
    expect(refused).toMatch(/\r\nConnection: close\r\n/i);
    expect(refused).toMatch(/\r\nRetry-After: 1\r\n/i);
    expect(refused).toMatch(/application\/problem\+json[\s\S]*"code":"ServiceUnavailable"/);
    await idle.closed;
    await drained;
  });

  it('finishes the request in flight with Connection: close, then accepts nothing', async () => {
    const busy = await RawConnection.open(port);
    busy.send('/slow');
    await slowStarted;

    const drained = server.drain(10_000);
    releaseSlow();
    const answer = await busy.response();
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(answer).toMatch(/Connection: close/i);
    await busy.closed;
    await drained;
    await expect(RawConnection.open(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('ends an idle connection nobody sends on at the keep-alive timeout announced to the client, well before the bound', async () => {
    server.keepAliveTimeout = 1_000;
    const idle = await RawConnection.open(port);
    idle.send('/fast');
    expect(await idle.response()).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
    const started = Date.now();
    await server.drain(20_000);
    await idle.closed;
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('answers a request arriving on a connection still open during the drain with 503 and closes it', async () => {
    const busy = await RawConnection.open(port);
    busy.send('/slow');
    await slowStarted;
    const late = await RawConnection.open(port);
    const drained = server.drain(10_000);
    late.send('/fast');
    const refused = await late.response();
    expect(refused).toMatch(/^HTTP\/1.1 503[\s\S]*Connection: close/i);
    expect(refused).toMatch(/ServiceUnavailable/);
    releaseSlow();
    await drained;
  });

  it('closes what is left after the bound: a request that never ends cannot hold the shutdown', async () => {
    const stuck = await RawConnection.open(port);
    stuck.send('/slow');
    await slowStarted;
    await server.drain(100); // resolves although /slow is never released
    await stuck.closed;
  });
});
