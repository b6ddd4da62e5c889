import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * Forwards TCP to a real server and can cut and restore the path on the same port, to play a broker
 * outage (connections drop, new ones are refused) without touching the shared server; or stall it
 * (connections stay open, nothing is forwarded until `resume()`), to play a server that stopped
 * answering (Redis `CLIENT PAUSE`, a saturated server) for this test's connections only.
 */
export class TcpOutageProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  private stalled = false;
  private readonly held: Array<() => void> = [];

  constructor(private readonly target: { host: string; port: number }) {}

  get url(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      const forward = (from: Socket, to: Socket) =>
        from.on('data', (chunk: Buffer) => (this.stalled ? this.held.push(() => to.write(chunk)) : to.write(chunk)));
      forward(client, upstream);
      forward(upstream, client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Holds every byte in both directions until `resume()`; connections stay open. */
  stall(): void {
    this.stalled = true;
  }

  /** Delivers what was held, in order, and forwards again. */
  resume(): void {
    this.stalled = false;
    for (const deliver of this.held.splice(0)) deliver();
  }

  /** Drops every open connection and refuses new ones until start() again. */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
