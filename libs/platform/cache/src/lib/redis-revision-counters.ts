import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import DataLoader from 'dataloader';
import { ReplyError } from 'ioredis';
import { CacheUnavailableError } from './cache-unavailable.error';
import { RedisConnection, redisNamespace, type RedisAdapterOptions } from './redis-connection';
import { RevisionCounters, RevisionStamp } from './revision-counters';

/** Reads one MGET answers at most; more go in further MGETs. */
const MAX_READS_PER_MGET = 256;
/** MGETs one read may take while the epoch settles after a reconnection (normally 1; 2 right after one). */
const MAX_READ_ATTEMPTS = 4;

/**
 * Replaces the epoch unless it was created in this server life (it starts with ARGV[1], the
 * server's run id): atomic, so after a restart every replica converges on the first one's epoch.
 */
const SETTLE_EPOCH = `local current = redis.call('GET', KEYS[1])
if current and string.sub(current, 1, string.len(ARGV[1])) == ARGV[1] then return current end
redis.call('SET', KEYS[1], ARGV[2])
return ARGV[2]`;

/**
 * The production revision counters, shared by every replica: `${keyPrefix}:rev:${name}`, INCR to
 * bump, MGET to read many. Counters carry no TTL, so under a `noeviction` or `volatile-*`
 * maxmemory policy Redis never drops one (an `allkeys-*` policy could, letting it read 0 again
 * while entries keyed with old values are still alive until their TTL). Owns its connection.
 *
 * The epoch (`${keyPrefix}:rev-epoch:current`) is read in the same MGET as the counters, so a
 * read's values always belong to the epoch it reports. It is `${run id}.${random}`: created in the
 * server's current life (Redis' `run_id` changes at every start). A restart either loses the
 * counters (no persistence: they read 0 again) or restores them from an older snapshot (they read
 * lower than values already handed out); either way the numbers repeat, and the epoch must not.
 * So after every (re)connection the adapter learns the server's run id once (INFO), and a read
 * whose epoch is missing or from another life replaces it (compare-and-set, see SETTLE_EPOCH)
 * and reads again. A connection that dropped without a restart keeps the epoch: same run id.
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
  private readonly epochKey: string;
  private readonly redis: RedisConnection;
  /** Keyed by the list of names one `read` asks for: one pending promise per read, not per name. */
  private readonly reads: DataLoader<readonly string[], RevisionStamp>;
  /** Counts connections made ready: a read answered on another connection than it started on reads again. */
  private connection = 0;
  /** `${run id}.` of the server behind `connection`, asked once per connection. */
  private life?: { connection: number; prefix: Promise<string> };

  constructor(options: RedisAdapterOptions) {
    super();
    this.namespace = redisNamespace(options.keyPrefix, 'rev');
    this.epochKey = `${redisNamespace(options.keyPrefix, 'rev-epoch')}current`;
    this.redis = new RedisConnection(options, this.logger);
    // ioredis emits 'ready' (on the next tick) before any reply of the new connection is read.
    this.redis.client.on('ready', () => {
      this.connection++;
      this.life = undefined;
      // Asked now rather than by the first read: a read after a reconnection then waits on nothing more.
      this.serverLife().catch(() => undefined);
    });
    this.reads = new DataLoader((lists) => this.readNow(lists), {
      cache: false,
      maxBatchSize: MAX_READS_PER_MGET,
      batchScheduleFn: (send) => setImmediate(send),
    });
  }

  async read(names: string[]): Promise<RevisionStamp> {
    return this.reads.load(names);
  }

  async bump(name: string): Promise<number> {
    return this.redis.run((client) => client.incr(this.namespace + name));
  }

  async close(): Promise<void> {
    await this.redis.close();
  }

  /** One MGET of the epoch and the distinct names of a batch of reads, answered to each read in its own order. */
  private async readNow(lists: ReadonlyArray<readonly string[]>): Promise<RevisionStamp[]> {
    const distinct = [...new Set(lists.flat())];
    const keys = [this.epochKey, ...distinct.map((name) => this.namespace + name)];
    for (let attempt = 1; ; attempt++) {
      const connection = this.connection;
      const life = await this.serverLife();
      const [epoch, ...values] = await this.redis.run((client) => client.mget(keys));
      const sameConnection = connection === this.connection;
      if (sameConnection && epoch?.startsWith(life)) {
        this.observeEpoch(epoch);
        const byName = new Map(distinct.map((name, i) => [name, values[i] == null ? 0 : Number(values[i])]));
        return lists.map((names) => ({ epoch, values: names.map((name) => byName.get(name) as number) }));
      }
      if (attempt >= MAX_READ_ATTEMPTS) throw new CacheUnavailableError('Redis: the revision epoch did not settle');
      if (sameConnection) await this.settleEpoch(life);
    }
  }

  /** The current server life's run id prefix, asked once per connection; `unknown.` where INFO is refused (then only a lost epoch is replaced). */
  private serverLife(): Promise<string> {
    if (this.life?.connection !== this.connection) {
      const prefix = this.redis
        .run((client) => client.info('server'))
        .then(
          (info) => `${/^run_id:(\w+)/m.exec(info)?.[1] ?? 'unknown'}.`,
          (error: unknown) => {
            if (error instanceof ReplyError) return 'unknown.';
            throw error;
          },
        );
      const life = { connection: this.connection, prefix };
      // A failed ask is asked again by the next read.
      prefix.catch(() => (this.life === life ? (this.life = undefined) : undefined));
      this.life = life;
    }
    return this.life.prefix;
  }

  private async settleEpoch(life: string): Promise<void> {
    const candidate = `${life}${randomBytes(8).toString('hex')}`;
    const epoch = await this.redis.run((client) => client.eval(SETTLE_EPOCH, 1, this.epochKey, life, candidate));
    if (epoch === candidate)
      this.logger.log('Revision epoch created: this Redis has no counters from before it started, cached entries stamped earlier are stale');
  }
}
