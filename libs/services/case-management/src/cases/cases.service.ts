import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CaseEvents, DataScope, LitigationCase, NotFoundError, Page, TrustedCaller, ValidCreateCase } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { pageOf, PageQuery, pageWindow } from '@lp/platform/http';
import { OutboxWriter } from '@lp/platform/messaging';
import { CaseManagementConfig, caseManagementConfig } from '../case-management.config';
import { LitigationCaseEntity } from '../store';
import { litigationCaseOf } from './case.mapping';
import { CaseFilter, CasesRepository } from './cases.repository';
import { formatMatterNumber } from './matter-number';

const CURRENCY = /^[A-Z]{3}$/;

/**
 * Litigation cases (docs/cases.md). HTTP routes and RPC handlers call the same methods with input
 * already checked by `createCaseSchema` and a caller already permitted by the guard.
 */
@Injectable()
export class CasesService {
  private readonly logger = new Logger(CasesService.name);
  private readonly defaultCurrency: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: CasesRepository,
    private readonly outbox: OutboxWriter,
    @InjectConfig(caseManagementConfig) config: CaseManagementConfig,
  ) {
    // The config has no pattern rule; a bad default would only surface on the first create, so fail at boot.
    if (!CURRENCY.test(config.CASES_DEFAULT_CURRENCY)) {
      throw new Error(`CASES_DEFAULT_CURRENCY must be an ISO 4217 code in upper case (three letters), got "${config.CASES_DEFAULT_CURRENCY}"`);
    }
    this.defaultCurrency = config.CASES_DEFAULT_CURRENCY;
  }

  /**
   * One transaction: the matter number is drawn, the case row written and `case.created` put in the
   * outbox, so the three exist together or not at all. The relay publishes right after the commit;
   * policy-management turns the event into the creator's `owner` relation (eventually consistent,
   * milliseconds). The caller owns the case: its subject for a user, the delegator for a delegated
   * caller (the actor is recorded as `createdBy`).
   */
  async create(caller: TrustedCaller, input: ValidCreateCase): Promise<LitigationCase> {
    const tenantId = caller.tenantId;
    const row = await this.dataSource.transaction(async (manager) => {
      const { year, sequence } = await this.repository.nextMatterSequence(manager, tenantId);
      const id = randomUUID();
      await manager.query(
        `INSERT INTO "cases"."litigation_case"
           ("id", "tenant_id", "matter_number", "title", "case_type", "claim_amount", "currency", "defendant_name", "status", "owner", "office_id", "created_by")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10, $11)`,
        [
          id,
          tenantId,
          formatMatterNumber(year, sequence),
          input.title,
          input.caseType,
          input.claimAmount,
          input.currency ?? this.defaultCurrency,
          input.defendantName,
          caller.subject,
          input.officeId ?? null,
          caller.actor ?? caller.subject,
        ],
      );
      const created = await this.repository.findInTenant(tenantId, id, manager);
      if (!created) throw new Error(`case ${id} vanished inside its own transaction`);
      await this.outbox.addEvent(
        manager,
        CaseEvents.created,
        {
          tenantId,
          caseId: created.id,
          matterNumber: created.matterNumber,
          title: created.title,
          caseType: created.caseType,
          claimAmount: created.claimAmount,
          currency: created.currency,
          owner: created.owner,
          officeId: created.officeId,
        },
        tenantId,
      );
      return created;
    });
    this.logger.log(`case ${row.matterNumber} (${row.id}) created in tenant ${tenantId}`);
    return litigationCaseOf(row);
  }

  /** The case, if the caller's DataScope reaches it; otherwise (or another tenant's, or no such id) `NotFound`. */
  async get(scope: DataScope, id: string): Promise<LitigationCase> {
    const row = await this.repository.findInScope(scope, id);
    if (!row) throw new NotFoundError('Case');
    return litigationCaseOf(row);
  }

  async list(scope: DataScope, filter: CaseFilter, page: PageQuery): Promise<Page<LitigationCase>> {
    const [rows, total] = await this.repository.page(scope, filter, pageWindow(page));
    return pageOf(rows.map(litigationCaseOf), total, page);
  }

  /** The case of the caller's tenant with `id`, unscoped: for the guard's facts, before any decision. */
  findForFacts(tenantId: string, id: string): Promise<LitigationCaseEntity | null> {
    return this.repository.findInTenant(tenantId, id);
  }
}
