import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

// Request codes of the startup phase (PostgreSQL protocol 3.0, "Message Formats").
const PROTOCOL_3 = 196_608;
const SSL_REQUEST = 80_877_103;
const GSSENC_REQUEST = 80_877_104;
const CANCEL_REQUEST = 80_877_102;
const TERMINATE = 0x58; // 'X'
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I': ReadyForQuery outside a transaction block
const SYNC = Uint8Array.from([0x53, 0, 0, 0, 4]);

type WireMessage = { kind: 'ssl' | 'gssenc' | 'cancel' | 'terminate' } | { kind: 'message'; bytes: Uint8Array };

/** The transaction status of the last ReadyForQuery in `reply`, or undefined when it holds none. */
export function readyStatusOf(reply: Uint8Array): number | undefined {
  let status: number | undefined;
  let offset = 0;
  const view = new DataView(reply.buffer, reply.byteOffset, reply.byteLength);
  while (offset + 5 <= reply.length) {
    const length = view.getInt32(offset + 1);
    if (reply[offset] === READY_FOR_QUERY && length === 5 && offset + 5 < reply.length) status = reply[offset + 5];
    if (length < 4) break;
    offset += 1 + length;
  }
  return status;
}

/**
 * First-come, first-served ownership of the one PGlite session. PGlite is a single backend: whoever
 * owns it may run messages; the rest wait in arrival order.
 */
class SessionLock<Owner> {
  private owner?: Owner;
  private readonly waiting: Array<{ owner: Owner; grant: () => void }> = [];

  acquire(owner: Owner): Promise<void> {
    if (this.owner === owner) return Promise.resolve();
    if (this.owner === undefined) {
      this.owner = owner;
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting.push({ owner, grant }));
  }

  release(owner: Owner): void {
    const queued = this.waiting.findIndex((w) => w.owner === owner);
    if (queued !== -1) this.waiting.splice(queued, 1);
    if (this.owner !== owner) return;
    const next = this.waiting.shift();
    this.owner = next?.owner;
    next?.grant();
  }

  get holder(): Owner | undefined {
    return this.owner;
  }
}

/**
 * Serves one PGlite database to ordinary Postgres clients (TypeORM's `pg` pools) over the wire
 * protocol, as `@electric-sql/pglite-socket` does, but with the session pinned correctly.
 *
 * PGlite is one backend session shared by every connection. A client's exchange — a simple Query,
 * or an extended-protocol Parse/Bind/Describe/Execute/Sync batch, or a whole transaction — must run
 * on that session without another client's messages in between: pglite-socket 0.2.17 queued single
 * messages and pinned a connection only inside a transaction, so two pools' Parse and Bind
 * interleaved ("bind message supplies 2 parameters, but prepared statement requires 1", or, when
 * the shapes matched, another query's parameters), and one failing message stopped its queue for
 * good (upstream electric-sql/pglite#1046, fix proposed in #977). Here a connection takes the
 * session at its first message and keeps it until PGlite answers ReadyForQuery with status idle
 * (`I`): the end of the exchange outside a transaction. A connection that fails or disconnects
 * while it owns the session hands it back clean: a Sync ends any half-done extended exchange, and
 * an open transaction is rolled back.
 */
export class PGliteWireBridge {
  private server?: Server;
  private readonly lock = new SessionLock<BridgeConnection>();
  private readonly connections = new Set<BridgeConnection>();

  constructor(private readonly db: PGlite) {}

  /** Listens on a Unix socket at `path` (the caller owns its directory and permissions). */
  async listen(path: string): Promise<void> {
    const server = createServer((socket) => {
      const connection = new BridgeConnection(socket, this.db, this.lock, () => this.connections.delete(connection));
      this.connections.add(connection);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const connection of [...this.connections]) await connection.close();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

class BridgeConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private startupDone = false;
  private closed = false;
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Socket,
    private readonly db: PGlite,
    private readonly lock: SessionLock<BridgeConnection>,
    private readonly onGone: () => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      // One drain at a time per connection, in arrival order.
      this.work = this.work.then(() => this.drain()).catch((error: unknown) => this.fail(error));
    });
    socket.on('error', () => undefined); // 'close' follows and cleans up
    socket.on('close', () => {
      this.work = this.work.then(() => this.close());
    });
  }

  /** Runs every complete message in the buffer. */
  private async drain(): Promise<void> {
    for (let next = this.next(); next && !this.closed; next = this.next()) {
      const message: WireMessage = next;
      if (message.kind === 'ssl' || message.kind === 'gssenc') {
        this.socket.write('N'); // no encryption on a local socket; the client goes on in plain text
        continue;
      }
      if (message.kind === 'cancel') continue; // PGlite has no backend process to signal
      if (message.kind === 'terminate') {
        await this.close();
        return;
      }
      if (message.kind !== 'message') continue;
      await this.lock.acquire(this);
      if (this.closed) {
        await this.handBack();
        return;
      }
      const bytes = message.bytes;
      const reply = await this.db.runExclusive(() => this.db.execProtocolRaw(bytes));
      if (reply.length > 0 && !this.socket.destroyed) this.socket.write(reply);
      if (readyStatusOf(reply) === IDLE) this.lock.release(this);
    }
  }

  /** The next complete message, or undefined when the buffer holds only part of one. */
  private next(): WireMessage | undefined {
    const b = this.buffer;
    if (!this.startupDone) {
      if (b.length < 8) return undefined;
      const length = b.readInt32BE(0);
      if (b.length < length) return undefined;
      const code = b.readInt32BE(4);
      this.buffer = b.subarray(length);
      if (code === SSL_REQUEST) return { kind: 'ssl' };
      if (code === GSSENC_REQUEST) return { kind: 'gssenc' };
      if (code === CANCEL_REQUEST) return { kind: 'cancel' };
      if (code !== PROTOCOL_3) throw new Error(`unsupported startup code ${code}`);
      this.startupDone = true;
      return { kind: 'message', bytes: new Uint8Array(b.subarray(0, length)) };
    }
    if (b.length < 5) return undefined;
    const length = 1 + b.readInt32BE(1);
    if (length < 5) throw new Error('malformed message length');
    if (b.length < length) return undefined;
    this.buffer = b.subarray(length);
    if (b[0] === TERMINATE) return { kind: 'terminate' };
    return { kind: 'message', bytes: new Uint8Array(b.subarray(0, length)) };
  }

  private async fail(_error: unknown): Promise<void> {
    // The client sees its connection drop (pg reports "Connection terminated"); the session is
    // handed back clean so every other connection goes on.
    await this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    await this.handBack();
    this.onGone();
  }

  /** Leaves the session as a new client expects it, then lets the next connection have it. */
  private async handBack(): Promise<void> {
    if (this.lock.holder === this) {
      try {
        await this.db.runExclusive(async () => {
          // A Sync ends an extended exchange cut short (after an error the backend would skip
          // everything until one); a transaction left open is rolled back.
          const status = readyStatusOf(await this.db.execProtocolRaw(SYNC));
          if (status !== undefined && status !== IDLE) await this.db.execProtocolRaw(simpleQuery('ROLLBACK'));
        });
      } catch {
        // The database itself failed; the next connection will see it on its own first message.
      }
    }
    this.lock.release(this);
  }
}

function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const message = Buffer.alloc(5 + text.length);
  message[0] = 0x51; // 'Q'
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return new Uint8Array(message);
}
