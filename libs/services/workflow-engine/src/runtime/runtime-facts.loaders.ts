import { Injectable } from '@nestjs/common';
import { NotFoundError, problemsOf, ValidationError } from '@lp/contracts';
import { z } from 'zod';
import { ResourceFacts, ResourceFactsInput, ResourceFactsLoader } from '@lp/authz-guard';
import { RuntimeRepository } from './runtime.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An RPC message naming a task: checked here, since the guard runs before the contract's schema. */
const rpcTask = z.object({ taskId: z.string().uuid() });

/**
 * The facts of a task route (`{taskId}`) or task RPC (`payload.taskId`), read within the caller's
 * tenant: the task's id, its assignee as `owner` and its instance's status. An id that is not a
 * UUID, a missing task and another tenant's task are one and the same 404, before any decision; an
 * RPC payload without a task id is the contract's `Validation.Failed`.
 */
@Injectable()
export class TaskFactsLoader implements ResourceFactsLoader {
  constructor(private readonly repository: RuntimeRepository) {}

  async load(input: ResourceFactsInput): Promise<ResourceFacts> {
    const id = this.taskIdOf(input);
    if (!UUID.test(id)) throw new NotFoundError('Task');
    const row = await this.repository.taskWithInstance(input.caller.tenantId, id);
    if (!row) throw new NotFoundError('Task');
    return { resourceId: row.id, owner: row.assignee, status: row.instance_status };
  }

  private taskIdOf(input: ResourceFactsInput): string {
    const fromRoute = input.params['taskId'];
    if (typeof fromRoute === 'string') return fromRoute;
    const parsed = rpcTask.safeParse(input.payload);
    if (!parsed.success) throw new ValidationError(problemsOf(parsed.error, 'payload'));
    return parsed.data.taskId;
  }
}

/** The facts of an instance route (`{id}`): id, initiator as `owner`, status; 404 as for tasks. */
@Injectable()
export class InstanceFactsLoader implements ResourceFactsLoader {
  constructor(private readonly repository: RuntimeRepository) {}

  async load(input: ResourceFactsInput): Promise<ResourceFacts> {
    const id = input.params['id'];
    if (typeof id !== 'string' || !UUID.test(id)) throw new NotFoundError('Instance');
    const row = await this.repository.instance(input.caller.tenantId, id);
    if (!row) throw new NotFoundError('Instance');
    return { resourceId: row.id, owner: row.initiator, status: row.status };
  }
}
