import { describeWithServers } from '@lp/platform/testing';
import { JobCatalogSync, JobScheduler, OperationsJobs } from '@lp/service/operations';
import { OperationsTestPlatform } from '../support/operations-platform';

const JOB = OperationsJobs.executionRetention.jobName;
const path = (suffix = '') => `/api/operations/jobs/${JOB}${suffix}`;

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'operations scheduler: two replicas run each tick exactly once', () => {
  const platform = new OperationsTestPlatform('ops-sched', { operationsInstances: 2, env: { OPERATIONS_SCHEDULER_TICK_MS: '100' } });

  beforeAll(async () => {
    await platform.start();
    await platform.operations[0]?.app.get(JobCatalogSync).syncNow();
  }, 90_000);
  afterAll(() => platform.stop());

  it('a 1-second interval job over 10 s runs 10±1 times in total across both replicas, never twice for one tick', async () => {
    const since = new Date();
    await platform.ops().put(path()).send({ intervalSeconds: 1, enabled: true }).expect(200);
    const windowEnd = since.getTime() + 10_000;
    // Waits for the window to pass (the condition is the clock itself), then stops and lets runs in flight end.
    while (Date.now() < windowEnd) await new Promise((resolve) => setTimeout(resolve, Math.min(250, windowEnd - Date.now())));
    await platform.ops().post(path('/stop')).expect(200);
    for (const ops of platform.operations) await ops.app.get(JobScheduler).idle();
    const runs: Array<{ scheduled_for: Date; status: string; dispatched_by: string; owner_started_at: Date | null }> = await platform.opsSql.query(
      `SELECT scheduled_for, status, dispatched_by, owner_started_at FROM ops.job_execution WHERE job_name = $1 AND trigger = 'schedule' AND scheduled_for <= $2 ORDER BY scheduled_for`,
      [JOB, new Date(windowEnd)],
    );
    expect(runs.length).toBeGreaterThanOrEqual(9);
    expect(runs.length).toBeLessThanOrEqual(11);
    expect(new Set(runs.map((r) => r.scheduled_for.getTime())).size).toBe(runs.length);
    expect(runs.every((r) => r.status === 'succeeded')).toBe(true);
    // The owner's handler started at or after its tick (as the owner reported it).
    expect(runs.every((r) => r.owner_started_at !== null && r.owner_started_at.getTime() >= r.scheduled_for.getTime() - 50)).toBe(true);
    // Ticks one interval apart: no drift from the scheduler's own lateness.
    for (let i = 1; i < runs.length; i++) {
      const [a, b] = [runs[i - 1], runs[i]];
      if (a && b) expect(b.scheduled_for.getTime() - a.scheduled_for.getTime()).toBe(1000);
    }
  }, 40_000);
});
