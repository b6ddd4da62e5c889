import { DataSource } from 'typeorm';
import { JobBindingRegistry, JobDispatcher } from '@lp/platform/jobs';
import { OutboxRelay } from '@lp/platform/messaging';
import { platformConfig } from './platform-config';
import { PlatformJobBindings, platformJobs } from './platform-jobs';

describe('platformJobs', () => {
  it('declares the processed-events retention and the outbox sweep of the service, with their default schedules', () => {
    expect(platformJobs('svc').map((j) => [j.jobName, j.source, j.defaultSchedule])).toEqual([
      ['svc.processed-events-retention', 'svc', { cron: '17 3 * * *' }],
      ['svc.outbox-sweep', 'svc', { intervalSeconds: 60 }],
    ]);
  });

  it('are bound by PlatformJobBindings exactly: the dispatcher of a service with no jobs of its own closes', () => {
    const registry = new JobBindingRegistry();
    // Never run here: the bindings only have to exist under the right names.
    new PlatformJobBindings(registry, {} as DataSource, {} as OutboxRelay, platformConfig.load({}), 'svc').onModuleInit();
    const dispatcher = new JobDispatcher('svc', platformJobs('svc'), registry.seal());
    expect(dispatcher.has('svc.processed-events-retention') && dispatcher.has('svc.outbox-sweep')).toBe(true);
  });
});
