import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describeWithServers } from '@lp/platform/testing';
import { FleetProcesses } from '../support/fleet-processes';
import { OtlpReceiver } from '../support/otlp-receiver';
import { fleetBootSuite } from './fleet-boot.suite';
import { fleetEndToEndSuite } from './fleet-e2e.suite';
import { fleetTracingSuite } from './fleet-tracing.suite';

const root = resolve(__dirname, '../../../..');

/**
 * The fleet as deployed, one process per service (two of authz-decision) and the console's app, on
 * PostgreSQL, RabbitMQ and Redis, every service exporting its traces to a receiver of this spec:
 * one fleet for three suites, which each used to start their own (a start is eight processes and
 * every service's migrations). In order: the boot checks, one trace across the fleet (before the
 * end-to-end suite, whose webhook subscriptions would add deliveries to the traced case's trace),
 * then the end-to-end scenarios. The faults specs keep fleets of their own: they cut the servers'
 * paths and kill processes.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'the fleet in processes of their own', () => {
  const otlp = new OtlpReceiver();
  // The receiver's address is known once it listens; the fleet reads its settings when it starts.
  // A short batch delay, so spans reach the receiver within the tracing suite's bounds (default 5 s).
  const env: Record<string, string> = { OTEL_BSP_SCHEDULE_DELAY: '100', LOG_LEVEL: 'info' };
  const fleet = new FleetProcesses('fleet', { console: true, instances: { 'authz-decision': 2 }, env });

  beforeAll(async () => {
    // The console's app serves dist/console: build it first (nothing to do when it is current).
    const build = spawnSync(process.execPath, [join(root, 'tools/build-console.mjs')], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`console build failed:\n${build.stdout}${build.stderr}`);
    await otlp.start();
    env.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.endpoint;
    await fleet.start();
  }, 180_000);
  afterAll(async () => {
    await fleet.stop();
    await otlp.stop();
  }, 60_000);

  fleetBootSuite(fleet);
  fleetTracingSuite(fleet, otlp);
  fleetEndToEndSuite(fleet);
});
