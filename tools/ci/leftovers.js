// What a test run leaves behind on this machine. `.ci/run` takes a snapshot before `npm test` and
// checks after it: every Redis key, RabbitMQ queue or exchange and PostgreSQL database that exists
// now but did not before, every process still running that the run started (they carry the run's
// LP_CI_RUN_ID in their environment), every file left in the run's own TMPDIR and every new entry of
// the system temporary directory is listed, and the check fails on any. What the Jest global teardown
// had to sweep for a crashed suite (tools/jest/global-teardown.js) is listed too: swept is still leaked.
//
//   node tools/ci/leftovers.js snapshot FILE
//   node tools/ci/leftovers.js check FILE
const { execFile } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { promisify } = require('node:util');
const { servers } = require('../jest/servers');

const run = promisify(execFile);

async function redisKeys() {
  const Redis = require('ioredis');
  const redis = new Redis(servers.redis, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const keys = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  } finally {
    redis.disconnect();
  }
}

async function rabbit(what) {
  const { stdout } = await run('rabbitmqctl', [what, 'name', '-q', '--no-table-headers'], { timeout: 60_000 });
  return stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

async function databases() {
  const { Client } = require('pg');
  const client = new Client({ connectionString: servers.postgres });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT datname FROM pg_database');
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

/** Processes (other than this one) whose environment carries the run id. */
function processesOfRun(runId) {
  if (!runId) return [];
  const found = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    if (Number(pid) === process.pid || Number(pid) === process.ppid) continue;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
      if (!environ.split('\0').includes(`LP_CI_RUN_ID=${runId}`)) continue;
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push(`${pid} ${cmdline.slice(0, 200)}`);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

const entries = (dir) => (dir && existsSync(dir) ? readdirSync(dir) : []);

async function snapshot() {
  const state = {};
  const attempt = async (name, read) => {
    try {
      state[name] = await read();
    } catch (error) {
      state[name] = { error: error.message };
    }
  };
  await attempt('redis', redisKeys);
  await attempt('queues', () => rabbit('list_queues'));
  await attempt('exchanges', () => rabbit('list_exchanges'));
  await attempt('databases', databases);
  state.tmp = entries('/tmp');
  return state;
}

async function check(file) {
  const before = JSON.parse(readFileSync(file, 'utf8'));
  const after = await snapshot();
  const problems = [];
  for (const kind of ['redis', 'queues', 'exchanges', 'databases', 'tmp']) {
    if (!Array.isArray(after[kind]) || !Array.isArray(before[kind])) {
      problems.push(`${kind}: could not be listed (${(after[kind] ?? before[kind])?.error ?? 'unknown'})`);
      continue;
    }
    const known = new Set(before[kind]);
    // The run's own TMPDIR is listed below by what it holds (and .ci/run removes it).
    const runTmpName = process.env.LP_CI_TMPDIR?.split('/').pop();
    const added = after[kind].filter((name) => !known.has(name) && !(kind === 'tmp' && name === runTmpName));
    if (added.length > 0) problems.push(`${kind} (${added.length}): ${added.slice(0, 20).join(', ')}${added.length > 20 ? ', …' : ''}`);
  }
  const processes = processesOfRun(process.env.LP_CI_RUN_ID);
  if (processes.length > 0) problems.push(`processes (${processes.length}): ${processes.join('; ')}`);
  const runTmp = process.env.LP_CI_TMPDIR;
  const inRunTmp = entries(runTmp);
  if (inRunTmp.length > 0) problems.push(`files in the run's TMPDIR ${runTmp} (${inRunTmp.length}): ${inRunTmp.slice(0, 20).join(', ')}`);
  const sweptReport = process.env.LP_LEFTOVERS_REPORT;
  if (sweptReport && existsSync(sweptReport)) {
    const swept = readFileSync(sweptReport, 'utf8').trim();
    if (swept) problems.push(`swept by the Jest global teardown (a suite did not delete its own): ${swept.split('\n').join('; ')}`);
  }
  if (problems.length === 0) {
    console.log('leftovers: none (Redis keys, RabbitMQ queues and exchanges, databases, processes, temporary files)');
    return 0;
  }
  console.log(`leftovers: the run left ${problems.length} kind(s) of things behind:`);
  for (const line of problems) console.log(`  - ${line}`);
  return 1;
}

async function main() {
  const [command, file] = process.argv.slice(2);
  if (command === 'snapshot' && file) {
    writeFileSync(file, JSON.stringify(await snapshot()));
    return 0;
  }
  if (command === 'check' && file) return check(file);
  console.error('usage: leftovers.js snapshot|check FILE');
  return 2;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`leftovers: ${error.stack ?? error}`);
    process.exit(1);
  },
);
