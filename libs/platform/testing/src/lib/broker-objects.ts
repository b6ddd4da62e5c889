import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connect } from 'amqplib';

const run = promisify(execFile);

export interface BrokerObjects {
  queues: string[];
  exchanges: string[];
}

/**
 * The queues and exchanges of the local RabbitMQ, listed with `rabbitmqctl` (the management plugin,
 * and with it the HTTP API, is not enabled on these machines; AMQP itself cannot list). Undefined
 * when rabbitmqctl is not available to this user: callers then cannot sweep, and say so.
 */
export async function listBrokerObjects(): Promise<BrokerObjects | undefined> {
  const list = async (what: 'list_queues' | 'list_exchanges') => {
    const { stdout } = await run('rabbitmqctl', [what, 'name', '-q', '--no-table-headers'], { timeout: 30_000 });
    return stdout
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  };
  try {
    return { queues: await list('list_queues'), exchanges: await list('list_exchanges') };
  } catch {
    return undefined;
  }
}

/**
 * Deletes every queue and exchange whose name starts with `prefix` (a run's own AMQP_PREFIX) or, with
 * `{ containing: true }`, contains it (the global teardown's run id). Returns what it deleted.
 * With `known`, the names the run declared (MessagingNames.durableObjects), deletes those (deleting a
 * missing queue or exchange is a no-op) instead of listing the broker's objects: a `rabbitmqctl`
 * listing starts an Erlang VM (1–5 s of a core), and every suite's teardown paid for two of them.
 * Refuses a prefix too short to be a run's own.
 */
export async function deleteBrokerObjects(url: string, prefix: string, options: { containing?: boolean; known?: BrokerObjects } = {}): Promise<BrokerObjects> {
  if (prefix.trim().length < 6 || /[*#]/.test(prefix)) throw new Error(`Refusing to delete broker objects under "${prefix}"`);
  const deleted: BrokerObjects = { queues: [], exchanges: [] };
  const listed = options.known ?? (await listBrokerObjects());
  if (!listed) return deleted;
  const ours = (name: string) => (options.containing ? name.includes(prefix) : name.startsWith(prefix));
  const queues = listed.queues.filter(ours);
  const exchanges = listed.exchanges.filter(ours);
  if (queues.length + exchanges.length === 0) return deleted;
  const connection = await connect(url);
  connection.on('error', () => undefined);
  try {
    // A refused delete (an exclusive queue still held by a live connection) closes the channel:
    // open a new one and go on, so one object never keeps the rest.
    let channel = await connection.createChannel();
    const attempt = async (remove: () => Promise<unknown>): Promise<boolean> => {
      try {
        await remove();
        return true;
      } catch {
        channel = await connection.createChannel();
        return false;
      }
    };
    for (const queue of queues) if (await attempt(() => channel.deleteQueue(queue))) deleted.queues.push(queue);
    for (const exchange of exchanges) if (await attempt(() => channel.deleteExchange(exchange))) deleted.exchanges.push(exchange);
    await channel.close().catch(() => undefined);
  } finally {
    await connection.close().catch(() => undefined);
  }
  return deleted;
}
