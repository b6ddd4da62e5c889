import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, Repository } from 'typeorm';
import { pageWindow } from '@lp/platform/http';
import { PolicyChangeLogEntity } from '../policy-store/entities/policy-change-log.entity';
import { PolicyChangeQuery } from './dto/policy-change.query';

@Injectable()
export class PolicyChangeLogRepository {
  constructor(@InjectRepository(PolicyChangeLogEntity) private readonly log: Repository<PolicyChangeLogEntity>) {}

  /**
   * The tenant's changes plus the global ones (tenant null: feature defaults, which change every
   * tenant's decisions), newest first; ties (one transaction, one instant) by id for stable pages.
   */
  list(tenantId: string, query: PolicyChangeQuery): Promise<[PolicyChangeLogEntity[], number]> {
    const q = this.log.createQueryBuilder('c').where(new Brackets((w) => w.where('c.tenantId = :tenantId', { tenantId }).orWhere('c.tenantId IS NULL')));
    if (query.change !== undefined) q.andWhere('c.change = :change', { change: query.change });
    if (query.actor !== undefined) q.andWhere('c.actor = :actor', { actor: query.actor });
    if (query.targetType !== undefined) q.andWhere('c.targetType = :targetType', { targetType: query.targetType });
    if (query.from !== undefined) q.andWhere('c.occurredAt >= :from', { from: new Date(query.from) });
    if (query.to !== undefined) q.andWhere('c.occurredAt < :to', { to: new Date(query.to) });
    const { skip, take } = pageWindow(query);
    return q.orderBy('c.occurredAt', 'DESC').addOrderBy('c.id', 'DESC').skip(skip).take(take).getManyAndCount();
  }
}
