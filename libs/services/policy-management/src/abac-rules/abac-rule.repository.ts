import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PageQuery, pageWindow } from '@lp/platform/http';
import { AbacRuleEntity } from '../policy-store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class AbacRuleRepository {
  constructor(@InjectRepository(AbacRuleEntity) private readonly rules: Repository<AbacRuleEntity>) {}

  /** The tenant's rules in evaluation order (priority, then id), as the decision core tries them. */
  list(tenantId: string, page: PageQuery): Promise<[AbacRuleEntity[], number]> {
    return this.rules.findAndCount({ where: { tenantId }, order: { priority: 'ASC', id: 'ASC' }, ...pageWindow(page) });
  }

  /** One rule of the tenant, or null: a malformed id is simply unknown, like another tenant's. */
  find(tenantId: string, ruleId: string): Promise<AbacRuleEntity | null> {
    if (!UUID.test(ruleId)) return Promise.resolve(null);
    return this.rules.findOneBy({ id: ruleId, tenantId });
  }

  /**
   * One rule of the tenant, locked for the change, inside the change's transaction. A malformed id
   * is simply unknown, like another tenant's.
   */
  async findForChange(manager: EntityManager, tenantId: string, ruleId: string): Promise<AbacRuleEntity | null> {
    if (!UUID.test(ruleId)) return null;
    return manager.findOne(AbacRuleEntity, { where: { id: ruleId, tenantId }, lock: { mode: 'pessimistic_write' } });
  }
}
