import { describeWithServers } from '@lp/platform/testing';
import { fleetServices } from '@lp/fleet';
import { FleetProcesses } from '../support/fleet-processes';

/** The fleet as deployed, one process per service (what `npm run start:fleet` and the image run), boots and reports ready. */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'the fleet in processes of their own', () => {
  const fleet = new FleetProcesses('fleet-boot');
  beforeAll(() => fleet.start(), 180_000);
  afterAll(() => fleet.stop(), 60_000);

  it('serves every service from its own process, each ready on PostgreSQL, RabbitMQ and Redis', async () => {
    const pids = new Set<number>();
    for (const { name } of fleetServices) {
      const process = fleet.process(name);
      pids.add(process.child.pid as number);
      const response = await fetch(`${process.url}/health/ready`);
      expect({ service: name, status: response.status }).toEqual({ service: name, status: 200 });
    }
    expect(pids.size).toBe(fleetServices.length);
  });
});
