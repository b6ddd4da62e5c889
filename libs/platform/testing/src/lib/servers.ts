import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';

export type TestServer = 'postgres' | 'rabbitmq' | 'redis';

/** URLs of the real servers integration suites use (ARCHITECTURE.md: 127.0.0.1 defaults, overridable). */
export const testServerUrls: Record<TestServer, string> = {
  postgres: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  rabbitmq: process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672',
  redis: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};

function reachableServers(): Set<string> {
  return new Set((process.env.LP_TEST_SERVERS ?? '').split(',').filter(Boolean));
}

/**
 * `describe` for a suite that needs real servers. The Jest global setup probed them: when one is
 * missing the suite is skipped with a visible notice, except under CI=true where the setup has
 * already failed the run.
 */
export function describeWithServers(servers: TestServer[], name: string, fn: () => void): void {
  const up = reachableServers();
  const missing = servers.filter((s) => !up.has(s));
  if (missing.length === 0) {
    describe(name, fn);
    return;
  }
  if (process.env.CI === 'true') {
    throw new Error(`CI=true but ${missing.join(', ')} unreachable for suite "${name}"`);
  }
  console.warn(`SKIPPED "${name}": ${missing.join(', ')} unreachable`);
  describe.skip(name, fn);
}

/**
 * A name unique to this test run and call, safe for database names, queue prefixes and key
 * prefixes (lower case, digits, underscore), so parallel and repeated runs never collide.
 */
export function testRunId(label = 't'): string {
  const run = process.env.LP_TEST_RUN_ID ?? Date.now().toString(36);
  const worker = process.env.JEST_WORKER_ID ?? '0';
  return `${label}_${run}_${worker}_${randomBytes(3).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

/**
 * `describe`, when every command is on PATH (tools a suite runs: promtool, kubectl,
 * docker-compose); otherwise skipped with a visible notice, or, under CI=true, failing (.ci/run
 * installs them).
 */
export function describeWithCommands(commands: string[], name: string, fn: () => void): void {
  const missing = commands.filter((command) => spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0);
  if (missing.length === 0) {
    describe(name, fn);
    return;
  }
  if (process.env.CI === 'true') throw new Error(`CI=true but ${missing.join(', ')} missing for suite "${name}" (.ci/run installs them)`);
  console.warn(`SKIPPED "${name}": ${missing.join(', ')} missing (.ci/run installs them)`);
  describe.skip(name, fn);
}
