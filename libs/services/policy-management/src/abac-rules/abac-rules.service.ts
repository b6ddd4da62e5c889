import { Injectable } from '@nestjs/common';
import { AbacRuleChangedPayload, ChangeKind, EventTypes, TrustedCaller } from '@lp/contracts';
import { Page, pageOf, PageQuery } from '@lp/platform/http';
import { PolicyChanges, PolicyChangeTransaction } from '../policy-change';
import { AbacRuleEntity } from '../policy-store';
import { AbacRuleRepository } from './abac-rule.repository';
import { storedCondition, storedVerdict } from './abac-rule.mapping';
import { AbacRuleNotFoundError } from './abac-rules.errors';
import { AbacRuleResponse } from './dto/abac-rule.response';
import { SaveAbacRuleDto } from './dto/save-abac-rule.dto';

/** The stored columns of a rule from a validated body (PUT replaces all of them: absent lists are emptied). */
function columnsOf(body: SaveAbacRuleDto): Omit<AbacRuleEntity, 'id' | 'tenantId' | 'createdAt' | 'updatedAt'> {
  return {
    name: body.name,
    description: body.description ?? null,
    priority: body.priority,
    verdict: storedVerdict(body.verdict),
    conditions: (body.conditions ?? []).map(storedCondition),
    actions: body.actions ?? [],
    modules: body.modules ?? [],
    resourceTypes: body.resourceTypes ?? [],
    obligations: body.obligations ?? [],
    enabled: body.enabled ?? true,
  };
}

@Injectable()
export class AbacRulesService {
  constructor(
    private readonly repository: AbacRuleRepository,
    private readonly changes: PolicyChanges,
  ) {}

  async list(tenantId: string, page: PageQuery): Promise<Page<AbacRuleResponse>> {
    const [rows, total] = await this.repository.list(tenantId, page);
    return pageOf(rows.map(AbacRuleResponse.of), total, page);
  }

  async get(tenantId: string, ruleId: string): Promise<AbacRuleResponse> {
    const rule = await this.repository.find(tenantId, ruleId);
    if (!rule) throw new AbacRuleNotFoundError(ruleId);
    return AbacRuleResponse.of(rule);
  }

  create(caller: TrustedCaller, body: SaveAbacRuleDto): Promise<AbacRuleResponse> {
    return this.changes.apply(caller, async (tx) => {
      const inserted = await tx.manager.save(AbacRuleEntity, tx.manager.create(AbacRuleEntity, { tenantId: caller.tenantId, ...columnsOf(body) }));
      const after = AbacRuleResponse.of(await tx.manager.findOneByOrFail(AbacRuleEntity, { id: inserted.id }));
      await this.record(tx, caller.tenantId, 'created', after.id, undefined, after);
      return after;
    });
  }

  update(caller: TrustedCaller, ruleId: string, body: SaveAbacRuleDto): Promise<AbacRuleResponse> {
    return this.changes.apply(caller, async (tx) => {
      const rule = await this.repository.findForChange(tx.manager, caller.tenantId, ruleId);
      if (!rule) throw new AbacRuleNotFoundError(ruleId);
      const before = AbacRuleResponse.of(rule);
      await tx.manager.update(AbacRuleEntity, { id: rule.id, tenantId: caller.tenantId }, columnsOf(body));
      const after = AbacRuleResponse.of(await tx.manager.findOneByOrFail(AbacRuleEntity, { id: rule.id }));
      await this.record(tx, caller.tenantId, 'updated', rule.id, before, after);
      return after;
    });
  }

  delete(caller: TrustedCaller, ruleId: string): Promise<void> {
    return this.changes.apply(caller, async (tx) => {
      const rule = await this.repository.findForChange(tx.manager, caller.tenantId, ruleId);
      if (!rule) throw new AbacRuleNotFoundError(ruleId);
      await tx.manager.delete(AbacRuleEntity, { id: rule.id, tenantId: caller.tenantId });
      await this.record(tx, caller.tenantId, 'deleted', rule.id, AbacRuleResponse.of(rule), undefined);
    });
  }

  /** Change log with before/after in API form, and the event that bumps the tenant's policy revision. */
  private record(tx: PolicyChangeTransaction, tenantId: string, change: ChangeKind, ruleId: string, before?: AbacRuleResponse, after?: AbacRuleResponse) {
    const payload: AbacRuleChangedPayload = { tenantId, ruleId, change };
    return tx.record({
      change: `abac-rule.${change}`,
      tenantId,
      targetType: 'abac-rule',
      targetId: ruleId,
      before,
      after,
      events: [{ type: EventTypes.authorization.abacRuleChanged, payload }],
    });
  }
}
