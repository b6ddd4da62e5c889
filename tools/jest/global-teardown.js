// Sweeps what this run left on the shared servers, by the run id every test prefix carries
// (`<label>_<runId>_<worker>_<random>`): Redis keys, RabbitMQ queues and exchanges, databases.
// Suites delete their own in teardown; this catches a suite that crashed before it could, and says
// what it found so the leaking suite can be fixed.
const { execFile } = require('node:child_process');
const { appendFileSync } = require('node:fs');
const { promisify } = require('node:util');
const { servers } = require('./servers');

const run = promisify(execFile);

async function sweepRedis(marker) {
  const Redis = require('ioredis');
  const redis = new Redis(servers.redis, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const keys = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `*${marker}*`, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    for (let i = 0; i < keys.length; i += 1000) await redis.unlink(...keys.slice(i, i + 1000));
    return keys.length;
  } finally {
    redis.disconnect();
  }
}

async function listRabbit(what) {
  const { stdout } = await run('rabbitmqctl', [what, 'name', '-q', '--no-table-headers'], { timeout: 30_000 });
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

async function sweepRabbit(marker) {
  let queues;
  let exchanges;
  try {
    queues = (await listRabbit('list_queues')).filter((n) => n.includes(marker));
    exchanges = (await listRabbit('list_exchanges')).filter((n) => n.includes(marker));
  } catch {
    return 0; // rabbitmqctl not available to this user: nothing to list with
  }
  if (queues.length + exchanges.length === 0) return 0;
  const amqp = require('amqplib');
  const connection = await amqp.connect(servers.rabbitmq);
  connection.on('error', () => undefined);
  let swept = 0;
  try {
    let channel = await connection.createChannel();
    const attempt = async (remove) => {
      try {
        await remove();
        swept++;
      } catch {
        channel = await connection.createChannel();
      }
    };
    for (const q of queues) await attempt(() => channel.deleteQueue(q));
    for (const e of exchanges) await attempt(() => channel.deleteExchange(e));
    await channel.close().catch(() => undefined);
  } finally {
    await connection.close().catch(() => undefined);
  }
  return swept;
}

async function sweepDatabases(marker) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: servers.postgres });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT datname FROM pg_database WHERE strpos(datname, $1) > 0`, [marker]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname.replace(/"/g, '""')}" WITH (FORCE)`);
    return rows.length;
  } finally {
    await client.end();
  }
}

module.exports = async function globalTeardown() {
  const runId = process.env.LP_TEST_RUN_ID;
  if (!runId) return;
  const marker = `_${runId.toLowerCase()}_`;
  const up = new Set((process.env.LP_TEST_SERVERS ?? '').split(',').filter(Boolean));
  const swept = {};
  const attempt = async (name, sweep) => {
    if (!up.has(name)) return;
    try {
      swept[name] = await sweep(marker);
    } catch (error) {
      console.warn(`global teardown: could not sweep ${name}: ${error.message}`);
    }
  };
  await attempt('redis', sweepRedis);
  // Listing the broker starts an Erlang VM (rabbitmqctl: 0.4–5 s of a core, two listings), and each
  // Nx target (`nx affected`) is a Jest run of its own. A run of unit specs, which use no broker, does
  // not pay for it; nor does a run under .ci/run (LP_LEFTOVERS_REPORT set), whose leftover check lists
  // the broker once after every run and fails on any queue or exchange left, named by the suite's label.
  if (process.env.JEST_KIND !== 'unit' && !process.env.LP_LEFTOVERS_REPORT) await attempt('rabbitmq', sweepRabbit);
  await attempt('postgres', sweepDatabases);
  const left = Object.entries(swept).filter(([, n]) => n > 0);
  if (left.length > 0) {
    const what = left.map(([k, n]) => `${k} ${n}`).join(', ');
    console.warn(`global teardown swept what suites left behind: ${what}`);
    // .ci/run's leftover check fails on it: a suite must delete what it made, the sweep is a net.
    if (process.env.LP_LEFTOVERS_REPORT)
      appendFileSync(process.env.LP_LEFTOVERS_REPORT, `${process.env.JEST_PROJECT_ROOT ?? 'jest'} ${process.env.JEST_KIND ?? ''}: ${what}\n`);
  }
};
