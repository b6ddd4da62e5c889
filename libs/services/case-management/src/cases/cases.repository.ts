import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import type { CaseStatus, CaseType, DataScope } from '@lp/contracts';
import { applyDataScope } from '@lp/authz-guard';
import { likeLiteral } from '@lp/platform/persistence';
import { LitigationCaseEntity } from '../store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CaseFilter {
  status?: CaseStatus;
  caseType?: CaseType;
  search?: string;
}

/**
 * The queries of `cases.litigation_case`. Every read names the tenant: either through the caller's
 * DataScope (`applyDataScope` puts the tenant predicate first) or explicitly (`findInTenant`).
 */
@Injectable()
export class CasesRepository {
  constructor(@InjectRepository(LitigationCaseEntity) private readonly cases: Repository<LitigationCaseEntity>) {}

  /**
   * Draws the next matter sequence of (tenant, current UTC year), in the case's transaction: the
   * upsert locks the counter row until that transaction ends, so concurrent creates of one tenant
   * serialize on it and a rolled-back create gives its number back. The year is the database's
   * `now()`, the same instant the case row's `created_at` gets.
   */
  async nextMatterSequence(manager: EntityManager, tenantId: string): Promise<{ year: number; sequence: number }> {
    const [row]: Array<{ year: number; last_value: string }> = await manager.query(
      `INSERT INTO "cases"."matter_sequence" AS s ("tenant_id", "year", "last_value")
       VALUES ($1, extract(year FROM now() AT TIME ZONE 'UTC')::int, 1)
       ON CONFLICT ("tenant_id", "year") DO UPDATE SET "last_value" = s."last_value" + 1
       RETURNING "year", "last_value"`,
      [tenantId],
    );
    if (!row) throw new Error('matter sequence upsert returned no row');
    return { year: Number(row.year), sequence: Number(row.last_value) };
  }

  /** The case with `id` in `tenantId`, or null: an id of another tenant, or not a UUID at all, is simply not there. */
  findInTenant(tenantId: string, id: string, manager?: EntityManager): Promise<LitigationCaseEntity | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return (manager?.getRepository(LitigationCaseEntity) ?? this.cases).findOne({ where: { tenantId, id } });
  }

  /** The case with `id`, if the caller's DataScope reaches it. */
  findInScope(scope: DataScope, id: string): Promise<LitigationCaseEntity | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return this.scoped(scope).andWhere('"c"."id" = :id', { id }).getOne();
  }

  /** One page of what the DataScope reaches, newest first (id breaks ties, so pages are stable). */
  page(scope: DataScope, filter: CaseFilter, window: { skip: number; take: number }): Promise<[LitigationCaseEntity[], number]> {
    const qb = this.scoped(scope);
    if (filter.status !== undefined) qb.andWhere('"c"."status" = :status', { status: filter.status });
    if (filter.caseType !== undefined) qb.andWhere('"c"."case_type" = :caseType', { caseType: filter.caseType });
    if (filter.search !== undefined) {
      const literal = likeLiteral(filter.search);
      qb.andWhere(`("c"."matter_number" ILIKE :prefix ESCAPE '\\' OR "c"."title" ILIKE :infix ESCAPE '\\')`, {
        prefix: `${literal}%`,
        infix: `%${literal}%`,
      });
    }
    return qb.orderBy('"c"."created_at"', 'DESC').addOrderBy('"c"."id"', 'DESC').skip(window.skip).take(window.take).getManyAndCount();
  }

  private scoped(scope: DataScope): SelectQueryBuilder<LitigationCaseEntity> {
    return applyDataScope(this.cases.createQueryBuilder('c'), scope, {
      tenant: '"c"."tenant_id"',
      owner: '"c"."owner"',
      office: '"c"."office_id"',
      id: '"c"."id"',
      resourceType: 'case',
    });
  }
}
