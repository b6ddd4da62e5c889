import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@lp/contracts';
import { ResourceFacts, ResourceFactsInput, ResourceFactsLoader } from '@lp/authz-guard';
import { RuntimeRepository } from './runtime.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The facts of a task route (`{taskId}`), read within the caller's tenant: the task's id, its
 * assignee as `owner` and its instance's status. An id that is not a UUID, a missing task and
 * another tenant's task are one and the same 404, before any decision.
 */
@Injectable()
export class TaskFactsLoader implements ResourceFactsLoader {
  constructor(private readonly repository: RuntimeRepository) {}

  async load(input: ResourceFactsInput): Promise<ResourceFacts> {
    const id = input.params['taskId'];
    if (typeof id !== 'string' || !UUID.test(id)) throw new NotFoundError('Task');
    const row = await this.repository.taskWithInstance(input.caller.tenantId, id);
    if (!row) throw new NotFoundError('Task');
    return { resourceId: row.id, owner: row.assignee, status: row.instance_status };
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
