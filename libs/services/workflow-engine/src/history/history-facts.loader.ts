import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@lp/contracts';
import { ResourceFacts, ResourceFactsInput, ResourceFactsLoader } from '@lp/authz-guard';
import { HistoryRepository } from './history.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The facts of a history route's instance (`{id}`), hot or archived, within the caller's tenant:
 * id, initiator as `owner`, status. Like the runtime's `InstanceFactsLoader`, except that an archived
 * instance is found too; another tenant's id, a missing id and a non-UUID are one 404.
 */
@Injectable()
export class HistoryInstanceFactsLoader implements ResourceFactsLoader {
  constructor(private readonly repository: HistoryRepository) {}

  async load(input: ResourceFactsInput): Promise<ResourceFacts> {
    const id = input.params['id'];
    if (typeof id !== 'string' || !UUID.test(id)) throw new NotFoundError('Instance');
    const row = await this.repository.instance(input.caller.tenantId, id);
    if (!row) throw new NotFoundError('Instance');
    return { resourceId: row.id, owner: row.initiator, status: row.status };
  }
}
