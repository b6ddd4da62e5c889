import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { describeWithServers, eventually } from '@lp/platform/testing';
import { call, FleetProcesses } from '../support/fleet-processes';

interface Execution {
  executionId: string;
  status: string;
  trigger: string;
  startedAt: string;
  finishedAt: string | null;
  ownerStartedAt: string | null;
  errorCode: string | null;
}

const JOB = 'workflow-engine.node-timeouts';
const SYSTEM = 'workflow-engine:timeout';
const DEFINITION_KEY = `kill-auto-${randomUUID().slice(0, 8)}`;

/**
 * kill -9 of a service process at the worst moments of a background job, on the fleet as deployed
 * (one process per service, `FleetProcesses`): the workflow engine with a node timeout due, and
 * the engine again while it is inside a run of `workflow-engine.node-timeouts` dispatched by
 * operations. The job's schedule is stopped for the file, so every run here is a manual one from
 * operations (a stopped job still runs manually, docs/jobs.md) and no scheduled run interleaves.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'the fleet under kill -9 of a job owner', () => {
  const fleet = new FleetProcesses('fleet-faults-kill');

  const api = (service: string, path: string, method = 'GET', body?: unknown, timeoutMs = 8_000) =>
    call(`${fleet.url(service)}${path}`, { method, headers: fleet.auth(), body }, timeoutMs);
  const runJob = (timeoutMs = 40_000) => api('operations', `/api/operations/jobs/${JOB}/run`, 'POST', undefined, timeoutMs);
  const executions = async (): Promise<Execution[]> => {
    const page = await api('operations', `/api/operations/jobs/${JOB}/executions?pageSize=100`);
    if (page.status !== 200) throw new Error(`executions answered ${page.status}: ${JSON.stringify(page.body)}`);
    return (page.body as { items: Execution[] }).items;
  };

  /** Starts an instance whose only task auto-approves on its timeout, and makes that timeout due. */
  const dueInstance = async (): Promise<{ instanceId: string; taskId: string }> => {
    const started = await api('workflow-engine', '/api/workflow/runtime/instances', 'POST', {
      definitionKey: DEFINITION_KEY,
      businessKey: randomUUID(),
      variables: {},
    });
    expect(started.status).toBe(201);
    const instanceId = (started.body as { id: string }).id;
    const [task] = (await fleet.sql.query<{ id: string }>(`SELECT id FROM workflow.task WHERE instance_id = $1`, [instanceId])).rows;
    if (!task) throw new Error(`instance ${instanceId} has no task`);
    // The timeout is an hour (the shortest the test can wait for is not a real node timeout): its
    // due time is moved into the past by SQL, which is what an hour passing does to the row.
    const moved = await fleet.sql.query(`UPDATE workflow.task_timer SET due_at = now() - interval '1 minute' WHERE task_id = $1 AND state = 'armed'`, [
      task.id,
    ]);
    expect(moved.rowCount).toBe(1);
    return { instanceId, taskId: task.id };
  };

  /** What the timer, the task, the instance and the engine's outbox say about one instance. */
  const outcome = async ({ instanceId, taskId }: { instanceId: string; taskId: string }) => {
    const timer = (
      await fleet.sql.query<{ state: string; fired_count: number }>(`SELECT state, fired_count FROM workflow.task_timer WHERE task_id = $1`, [taskId])
    ).rows[0];
    const tasks = (
      await fleet.sql.query<{ status: string; decided_by: string | null }>(`SELECT status, decided_by FROM workflow.task WHERE instance_id = $1`, [instanceId])
    ).rows;
    const instance = (await fleet.sql.query<{ status: string }>(`SELECT status FROM workflow.instance WHERE id = $1`, [instanceId])).rows[0]?.status;
    const events = (
      await fleet.sql.query<{ event_type: string; n: number }>(
        `SELECT event_type, count(*)::int AS n FROM workflow.outbox_message
          WHERE envelope->'payload'->>'instanceId' = $1 AND event_type IN ('workflow.task.completed', 'workflow.task.timed-out', 'workflow.instance.completed')
          GROUP BY event_type ORDER BY event_type`,
        [instanceId],
      )
    ).rows.reduce<Record<string, number>>((all, row) => ({ ...all, [row.event_type]: row.n }), {});
    return { timer, tasks, instance, events };
  };
  const firedOnce = {
    timer: { state: 'fired', fired_count: 1 },
    tasks: [{ status: 'Approved', decided_by: SYSTEM }],
    instance: 'Approved',
    events: { 'workflow.instance.completed': 1, 'workflow.task.completed': 1, 'workflow.task.timed-out': 1 },
  };

  beforeAll(async () => {
    await fleet.start();
    // The job's definition is seeded by operations' catalog sync (at its start, again every 60 s).
    const stopped = await eventually(
      () => api('operations', `/api/operations/jobs/${JOB}/stop`, 'POST'),
      (res) => res.status === 200,
      70_000,
      500,
    );
    expect(stopped.status).toBe(200);
    const definition = {
      name: 'Auto-approve on timeout',
      nodes: [{ kind: 'approval', key: 'solo', assignees: [{ kind: 'user', subjects: ['admin'] }], timeout: { after: 'PT1H', action: 'auto-approve' } }],
    };
    const deployed = await api('workflow-engine', `/api/workflow/definitions/${DEFINITION_KEY}/deployments`, 'POST', { definition });
    expect(deployed.status).toBe(201);
  }, 240_000);
  afterAll(() => fleet.stop(), 60_000);

  it('kill -9 of workflow-engine with a node timeout due: after the restart a run from operations auto-approves it exactly once', async () => {
    const target = await dueInstance();
    const killedAt = Date.now();
    await fleet.kill(fleet.process('workflow-engine'), 'SIGKILL');
    await fleet.startService('workflow-engine');
    const restartedMs = Date.now() - killedAt;
    // Nothing fired while the engine was gone (the schedule is stopped and nobody else runs it).
    expect((await outcome(target)).timer).toEqual({ state: 'armed', fired_count: 0 });

    const runStart = Date.now();
    const run = await runJob();
    const runMs = Date.now() - runStart;
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ status: 'succeeded', execution: { status: 'succeeded', trigger: 'manual' } });
    const after = await outcome(target);
    // A second run finds nothing due for it: the committed firing never fires again.
    const again = await runJob();
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'succeeded' });
    const final = await outcome(target);
    console.log(
      `[faults-kill] kill -9 workflow-engine with a timeout due: restarted in ${restartedMs} ms; run from operations answered in ${runMs} ms ` +
        `("${(run.body as { detail?: string }).detail}"); after it ${JSON.stringify(after)}; after a second run ${JSON.stringify(final)}`,
    );
    expect(after).toEqual(firedOnce);
    expect(final).toEqual(firedOnce);
  }, 90_000);

  it('kill -9 of workflow-engine inside a run of node-timeouts: the run rolls back, the request is redelivered to the restarted engine, the execution ends succeeded once and the timeout fires once', async () => {
    const target = await dueInstance();
    const before = new Set((await executions()).map((e) => e.executionId));
    // The run blocks inside its firing transaction: this connection holds the instance's row lock,
    // which the run takes after claiming the timer (lockInstanceOfTask).
    const holder = new Client({ connectionString: fleet.env.DATABASE_URL });
    await holder.connect();
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await holder.query('ROLLBACK');
    };
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM workflow.instance WHERE id = $1 FOR UPDATE`, [target.instanceId]);
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

      const triggeredAt = Date.now();
      const answer = runJob(60_000);
      const blockedOn = () =>
        fleet.sql
          .query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND $1 = ANY (pg_blocking_pids(pid))`,
            [holderPid],
          )
          .then((r) => r.rows[0]!.n);
      expect(await eventually(blockedOn, (n) => n === 1, 15_000, 50)).toBe(1);
      const inRun = await eventually(
        async () => (await executions()).filter((e) => !before.has(e.executionId)),
        (list) => list.length === 1,
        5_000,
        100,
      );
      expect(inRun).toEqual([expect.objectContaining({ status: 'running', trigger: 'manual' })]);
      const blockedMs = Date.now() - triggeredAt;

      const killedAt = Date.now();
      await fleet.kill(fleet.process('workflow-engine'), 'SIGKILL');
      // The dead engine's transaction ends when its backend gets the lock and finds the client gone:
      // release it, then wait (bounded) until the timer is no longer locked by that transaction.
      await release();
      const unlocked = await eventually(
        () => fleet.sql.query(`SELECT 1 FROM workflow.task_timer WHERE task_id = $1 FOR UPDATE SKIP LOCKED`, [target.taskId]).then((r) => r.rowCount ?? 0),
        (n) => n === 1,
        10_000,
        50,
      );
      expect(unlocked).toBe(1);
      // Rolled back: nothing of the firing is left.
      expect((await outcome(target)).timer).toEqual({ state: 'armed', fired_count: 0 });
      expect((await outcome(target)).instance).toBe('Running');

      await fleet.startService('workflow-engine');
      const restartedMs = Date.now() - killedAt;
      const settled = await eventually(
        async () => (await executions()).filter((e) => !before.has(e.executionId)),
        (list) => list.length !== 1 || list[0]!.status !== 'running',
        45_000,
        200,
      );
      const settledMs = Date.now() - killedAt;
      const http = await answer;
      const after = await outcome(target);
      console.log(
        `[faults-kill] kill -9 workflow-engine inside a node-timeouts run: run blocked in the owner ${blockedMs} ms after the trigger; restarted in ${restartedMs} ms; ` +
          `execution settled ${settledMs} ms after the kill: ${JSON.stringify(settled)}; manual run HTTP answer ${http.status} ${JSON.stringify(http.body)}; ` +
          `executions of this run ${settled.length}; outcome ${JSON.stringify(after)}`,
      );
      expect(settled).toEqual([expect.objectContaining({ executionId: inRun[0]!.executionId, status: 'succeeded', finishedAt: expect.any(String) })]);
      expect(after).toEqual(firedOnce);

      // A later run finds nothing due for it: still once.
      const again = await runJob();
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: 'succeeded' });
      expect(await outcome(target)).toEqual(firedOnce);
    } finally {
      await release().catch(() => undefined);
      await holder.end();
    }
  }, 90_000);
});
