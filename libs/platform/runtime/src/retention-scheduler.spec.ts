import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { RetentionRegistry, RetentionTask } from '@lp/platform/persistence';
import { platformConfig } from './platform-config';
import { RetentionScheduler } from './retention-scheduler';

const fakeDataSource = {
  getMetadata: () => ({ schema: 's', tableName: 'processed_event' }),
  driver: { escape: (n: string) => `"${n}"` },
} as unknown as DataSource;

function scheduler(env: Record<string, string> = {}, registry = new RetentionRegistry()) {
  return new RetentionScheduler(registry, new SchedulerRegistry(), platformConfig.load(env), fakeDataSource, 'svc');
}

describe('RetentionScheduler', () => {
  it('refuses a RETENTION_SCHEDULE that is not a cron expression, naming it', () => {
    expect(() => scheduler({ RETENTION_SCHEDULE: 'every night' })).toThrow(/RETENTION_SCHEDULE "every night" is not a cron expression/);
  });

  it("registers the service's processed-event purge as the platform's own task", () => {
    const registry = new RetentionRegistry();
    scheduler({}, registry);
    expect(registry.list().map((t) => t.name)).toEqual(['svc.processed-events']);
  });

  it('runs every task even when one fails, and does not start a second run while one is going', async () => {
    const registry = new RetentionRegistry();
    const ran: string[] = [];
    const task = (name: string, fail = false): RetentionTask => ({
      name,
      description: name,
      purge: async () => {
        ran.push(name);
        if (fail) throw new Error('boom');
        return { rows: 0, batches: 1, ms: 0 };
      },
    });
    const s = scheduler({}, registry);
    registry.register(task('a.first', true));
    registry.register(task('b.second'));
    // svc.processed-events runs last and fails too (this DataSource answers no query): still no throw.
    const first = s.runAll();
    expect(s.runAll()).toBe(first);
    await first;
    expect(ran).toEqual(['a.first', 'b.second']);
  });
});
