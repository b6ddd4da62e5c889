import { describeWithServers } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { OperationName, RUNTIME_OPERATIONS } from './runtime-operations';
import { describeOpen, RuntimeTenant } from './runtime-tenant';

/*
 * Two writes on one instance at the same time, over real HTTP against the real PostgreSQL: every
 * runtime write locks the instance row, so whatever the order, each answer is a success or a 409
 * problem+json (never a 5xx), the stored state is consistent, and the instance version moves once
 * per applied write. Each race runs ROUNDS times on fresh instances, the two requests sent in
 * alternating order, to shake out orderings.
 */

const ROUNDS = 5;
const TERMINAL_EVENTS = ['completed', 'withdrawn', 'terminated', 'cancelled'].map((e) => `workflow.instance.${e}`);

const pair = (key: string, mode: string, operations: Record<string, unknown> = {}) => ({
  name: key,
  nodes: [{ kind: 'approval', key: 'pair', mode, assignees: [{ kind: 'user', subjects: ['anna', 'ben'] }], operations }],
});
const DEFINITIONS = {
  'race-all': pair('race-all', 'all'),
  'race-any': pair('race-any', 'any'),
  'race-delegate': pair('race-delegate', 'all', { delegate: true }),
  'race-add': pair('race-add', 'all', { addSigner: true }),
  'race-transfer': pair('race-transfer', 'all', { transfer: true }),
  'race-return': pair('race-return', 'all', { transfer: true, rejectTargets: 'start' }),
  'race-delegate-any': pair('race-delegate-any', 'any', { delegate: true }),
};
type DefinitionKey = keyof typeof DEFINITIONS;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** One side of a race: who calls which operation, on whose task at `pair` or on the instance. */
interface Contender {
  as: string;
  op: OperationName;
  task?: string;
  body?: object;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'workflow-engine: concurrent writes on one instance (real PostgreSQL)', () => {
  const platform = new OperationsTestPlatform('wfrace', { env: { USER_POLICY_LIMIT: '100000' } });
  let tenant: RuntimeTenant;
  let round = 0;

  beforeAll(async () => {
    await platform.start();
    tenant = await RuntimeTenant.create(platform, 'races', {
      ina: ['starter'],
      mia: ['admin'],
      anna: ['approver'],
      ben: ['approver'],
      carl: ['approver'],
      finn: ['approver'],
    });
    for (const [key, definition] of Object.entries(DEFINITIONS)) await tenant.publish(key, definition);
  }, 120_000);
  afterAll(() => platform.stop());

  /** A success, or a 409 problem+json with a title and a detail: the two answers a lost race may give. */
  function expectSettled(answer: Answer, what: string): void {
    if (answer.status >= 200 && answer.status < 300) return;
    const problem = `${what}: ${answer.status} ${JSON.stringify(answer.body)}`;
    expect({ problem, status: answer.status }).toEqual({ problem, status: 409 });
    expect(answer.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(answer.body).toMatchObject({ title: expect.any(String), detail: expect.any(String), code: expect.stringMatching(/^Workflow\./) });
  }

  /**
   * The stored state makes sense: at most one Pending task per seat; an ended instance has none; a
   * Running one's Pending tasks sit on seats of nodes waiting at that visit, held by the seat's
   * assignee (or their delegate); the version moved once per applied write.
   */
  async function expectConsistent(instanceId: string, versionBefore: number, applied: number): Promise<void> {
    const row = await tenant.instanceRow(instanceId);
    const tasks = await tenant.tasks(instanceId);
    const pending = tasks.filter((t) => t.status === 'Pending');
    const seats = pending.map((t) => `${t.nodeKey}@${t.visit}#${t.seq}`);
    expect(seats.length).toBe(new Set(seats).size);
    if (row.status !== 'Running' && row.status !== 'Suspended') expect(describeOpen(pending)).toBe('(none)');
    for (const task of pending) {
      const parked = row.position.parked[task.nodeKey];
      expect({ task: task.id, visit: parked?.visit, holder: parked?.assignees[task.seq ?? -1] }).toEqual({
        task: task.id,
        visit: task.visit,
        holder: task.owner ?? task.assignee,
      });
    }
    expect(row.version - versionBefore).toBe(applied);
  }

  async function start(key: DefinitionKey): Promise<{ id: string; version: number }> {
    const res = await tenant
      .as('ina')
      .post(RUNTIME_OPERATIONS.start.path())
      .send({ definitionKey: key, businessKey: `race-${++round}` });
    expect(res.status).toBe(201);
    return { id: res.body.id, version: res.body.version };
  }

  /** Resolves both contenders' targets first, then sends both requests at once (the second first when `swap`); answers in contender order. */
  async function race(instanceId: string, contenders: [Contender, Contender], swap: boolean): Promise<[Answer, Answer]> {
    const requests = await Promise.all(
      contenders.map(async (c) => {
        const operation = RUNTIME_OPERATIONS[c.op];
        const id = c.task ? (await tenant.pendingTask(instanceId, 'pair', c.task)).id : instanceId;
        return async (): Promise<Answer> =>
          (await tenant
            .as(c.as)
            .post(operation.path(id))
            .send(c.body ?? {})) as unknown as Answer;
      }),
    );
    const [first, second] = requests as [() => Promise<Answer>, () => Promise<Answer>];
    if (swap) {
      const [b, a] = await Promise.all([second(), first()]);
      return [a, b];
    }
    return Promise.all([first(), second()]);
  }

  const applied = (answers: Answer[]) => answers.filter((a) => a.status < 300).length;
  const terminalEvents = async (id: string) => {
    const counts = await tenant.eventCounts(id);
    return TERMINAL_EVENTS.reduce((n, type) => n + (counts[type] ?? 0), 0);
  };

  it('all: two approvers completing at once both succeed; the node closes once; one terminal event', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, version } = await start('race-all');
      const answers = await race(
        id,
        [
          { as: 'anna', op: 'complete', task: 'anna' },
          { as: 'ben', op: 'complete', task: 'ben' },
        ],
        i % 2 === 1,
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.filter((a) => a.body['nodeClosed'] === true)).toHaveLength(1);
      expect((await tenant.instanceRow(id)).status).toBe('Approved');
      expect(await terminalEvents(id)).toBe(1);
      await expectConsistent(id, version, 2);
    }
  });

  it('any: two approvers completing at once: one wins, the other gets 409 Task.NotPending; one vote, one terminal event', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, version } = await start('race-any');
      const answers = await race(
        id,
        [
          { as: 'anna', op: 'complete', task: 'anna' },
          { as: 'ben', op: 'complete', task: 'ben' },
        ],
        i % 2 === 1,
      );
      answers.forEach((a, n) => expectSettled(a, `contender ${n}`));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)?.body['code']).toBe('Workflow.Task.NotPending');
      const tasks = await tenant.tasks(id);
      expect(tasks.map((t) => t.status).sort()).toEqual(['Approved', 'Cancelled']);
      expect((await tenant.instanceRow(id)).status).toBe('Approved');
      expect(await terminalEvents(id)).toBe(1);
      await expectConsistent(id, version, 1);
    }
  });

  it('delegate vs a complete by the other seat holder: both apply (different seats), neither update is lost', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, version } = await start('race-delegate');
      const answers = await race(
        id,
        [
          { as: 'anna', op: 'delegate', task: 'anna', body: { to: 'carl' } },
          { as: 'ben', op: 'complete', task: 'ben' },
        ],
        i % 2 === 1,
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const tasks = await tenant.tasks(id);
      expect(tasks.map((t) => `${t.assignee}:${t.status}${t.owner ? `<${t.owner}` : ''}`).sort()).toEqual([
        'anna:Delegated',
        'ben:Approved',
        'carl:Pending<anna',
      ]);
      expect((await tenant.instanceRow(id)).status).toBe('Running');
      await expectConsistent(id, version, 2);
    }
  });

  it('add-participant vs a vote on the same node: both apply; the added seat is kept and counted', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, version } = await start('race-add');
      const answers = await race(
        id,
        [
          { as: 'anna', op: 'add-participant', task: 'anna', body: { subjects: ['finn'], position: 'parallel' } },
          { as: 'ben', op: 'complete', task: 'ben' },
        ],
        i % 2 === 1,
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers[1].body['nodeClosed']).toBe(false);
      expect((await tenant.instanceRow(id)).position.parked['pair']?.assignees).toEqual(['anna', 'ben', 'finn']);
      expect(describeOpen(await tenant.tasks(id))).toBe('pair:anna, pair:finn');
      await expectConsistent(id, version, 2);
    }
  });

  it('transfer vs withdraw: the withdraw always applies; the transfer applies first or gets 409; nothing stays open', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, version } = await start('race-transfer');
      const answers = await race(
        id,
        [
          { as: 'anna', op: 'transfer', task: 'anna', body: { to: 'carl' } },
          { as: 'ina', op: 'withdraw' },
        ],
        i % 2 === 1,
      );
      answers.forEach((a, n) => expectSettled(a, `contender ${n}`));
      expect(answers[1].status).toBe(200);
      // The ending operation cancelled the task: its state is checked first.
      if (answers[0].status === 409) expect(answers[0].body['code']).toBe('Workflow.Task.NotPending');
      expect((await tenant.instanceRow(id)).status).toBe('Withdrawn');
      expect(await terminalEvents(id)).toBe(1);
      await expectConsistent(id, version, applied(answers));
    }
  });

  it('delegate vs terminate: the terminate always applies; the delegation applies first or gets 409; nothing stays open', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, version } = await start('race-delegate');
      const answers = await race(
        id,
        [
          { as: 'anna', op: 'delegate', task: 'anna', body: { to: 'carl' } },
          { as: 'mia', op: 'terminate' },
        ],
        i % 2 === 1,
      );
      answers.forEach((a, n) => expectSettled(a, `contender ${n}`));
      expect(answers[1].status).toBe(200);
      // The ending operation cancelled the task: its state is checked first.
      if (answers[0].status === 409) expect(answers[0].body['code']).toBe('Workflow.Task.NotPending');
      expect((await tenant.instanceRow(id)).status).toBe('Terminated');
      expect(await terminalEvents(id)).toBe(1);
      await expectConsistent(id, version, applied(answers));
    }
  });
  it('complete vs transfer of the same task by its assignee: exactly one applies, the other gets 409 Task.NotPending', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, version } = await start('race-transfer');
      const answers = await race(
        id,
        [
          { as: 'anna', op: 'complete', task: 'anna' },
          { as: 'anna', op: 'transfer', task: 'anna', body: { to: 'carl' } },
        ],
        i % 2 === 1,
      );
      answers.forEach((a, n) => expectSettled(a, `contender ${n}`));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)?.body['code']).toBe('Workflow.Task.NotPending');
      const open = describeOpen(await tenant.tasks(id));
      expect(open).toBe(answers[0].status === 200 ? 'pair:ben' : 'pair:ben, pair:carl');
      await expectConsistent(id, version, 1);
    }
  });

  it('reject to start vs another approver’s vote: the instance is returned to its initiator either way, with nothing left open', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, version } = await start('race-return');
      const answers = await race(
        id,
        [
          { as: 'anna', op: 'reject', task: 'anna', body: { target: 'start' } },
          { as: 'ben', op: 'complete', task: 'ben' },
        ],
        i % 2 === 1,
      );
      answers.forEach((a, n) => expectSettled(a, `contender ${n}`));
      expect(answers[0].status).toBe(200);
      if (answers[1].status === 409) expect(answers[1].body['code']).toBe('Workflow.Task.NotPending');
      expect((await tenant.progress(id)).returnedToInitiator).toBe(true);
      expect(await tenant.events(id, 'workflow.instance.returned')).toBe(1);
      await expectConsistent(id, version, applied(answers));
    }
  });
  it('a delegate acting vs the other seat holder’s deciding vote (any): the vote decides once; the returned task, if any, is cancelled', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id } = await start('race-delegate-any');
      const anna = await tenant.pendingTask(id, 'pair', 'anna');
      expect((await tenant.as('anna').post(RUNTIME_OPERATIONS.delegate.path(anna.id)).send({ to: 'carl' })).status).toBe(200);
      const { version } = await tenant.instanceRow(id);
      const answers = await race(
        id,
        [
          { as: 'carl', op: 'complete', task: 'carl' },
          { as: 'ben', op: 'complete', task: 'ben' },
        ],
        i % 2 === 1,
      );
      answers.forEach((a, n) => expectSettled(a, `contender ${n}`));
      expect(answers[1].status).toBe(200);
      if (answers[0].status === 409) expect(answers[0].body['code']).toBe('Workflow.Task.NotPending');
      expect((await tenant.instanceRow(id)).status).toBe('Approved');
      const votes = (await tenant.tasks(id)).filter((t) => t.owner === null && (t.status === 'Approved' || t.status === 'Rejected'));
      expect(votes.map((t) => t.assignee)).toEqual(['ben']);
      expect(await terminalEvents(id)).toBe(1);
      await expectConsistent(id, version, applied(answers));
    }
  });
});
