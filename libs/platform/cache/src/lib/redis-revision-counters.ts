import { Logger } from '@nestjs/common';
import DataLoader from 'dataloader';
import { RedisConnection, redisNamespace, type RedisAdapterOptions } from './redis-connection';
import { RevisionCounters } from './revision-counters';

/** Reads one MGET answers at most; more go in further MGETs. */
const MAX_READS_PER_MGET = 256;

/**
 * The production revision counters, shared by every replica: `${keyPrefix}:rev:${name}`, INCR to
 * bump, MGET to read many. Counters carry no TTL, so under a `noeviction` or `volatile-*`
 * maxmemory policy Redis never drops one (an `allkeys-*` policy could, letting it read 0 again
 * while entries keyed with old values are still alive until their TTL). Owns its connection.
 *
 * Reads are coalesced: every `read` asked while the event loop handles one round of I/O (all the
 * RPC requests that arrived together) joins one MGET, sent from `setImmediate` once that round is
 * over. Under load this turns a command per decision into a command per burst, which is most of
 * what Redis costs the decision path (socket writes, command timers, the server's per-command
 * work). The MGET is sent after every read it answers was asked, so each still sees every bump
 * that completed before it was asked: coalescing never serves a value older than a direct read
 * would. Nothing is cached between batches (`cache: false`).
 */
export class RedisRevisionCounters extends RevisionCounters {
  private readonly logger = new Logger(RedisRevisionCounters.name);
  private readonly namespace: string;
  private readonly redis: RedisConnection;
  /** Keyed by the list of names one `read` asks for: one pending promise per read, not per name. */
  private readonly reads: DataLoader<readonly string[], number[]>;

  constructor(options: RedisAdapterOptions) {
    super();
    this.namespace = redisNamespace(options.keyPrefix, 'rev');
    this.redis = new RedisConnection(options, this.logger);
    this.reads = new DataLoader((lists) => this.readNow(lists), {
      cache: false,
      maxBatchSize: MAX_READS_PER_MGET,
      batchScheduleFn: (send) => setImmediate(send),
    });
  }

  async read(names: string[]): Promise<number[]> {
    if (names.length === 0) return [];
    return this.reads.load(names);
  }

  async bump(name: string): Promise<number> {
    return this.redis.run((client) => client.incr(this.namespace + name));
  }

  async close(): Promise<void> {
    await this.redis.close();
  }

  /** One MGET of the distinct names of a batch of reads, answered to each read in its own order. */
  private async readNow(lists: ReadonlyArray<readonly string[]>): Promise<number[][]> {
    const distinct = [...new Set(lists.flat())];
    const values = await this.redis.run((client) => client.mget(distinct.map((name) => this.namespace + name)));
    const byName = new Map(distinct.map((name, i) => [name, values[i] === null ? 0 : Number(values[i])]));
    return lists.map((names) => names.map((name) => byName.get(name) as number));
  }
}
