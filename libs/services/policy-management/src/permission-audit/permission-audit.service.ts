import { Injectable } from '@nestjs/common';
import { AuthzRpc, DecisionAuditItem, NotFoundError, TrustedCaller, ValidationError } from '@lp/contracts';
import { Page, pageOf } from '@lp/platform/http';
import { RpcClient } from '@lp/platform/messaging';
import { DecisionAuditQuery } from './dto/decision-audit.query';
import { PolicyChangeQuery } from './dto/policy-change.query';
import { PolicyChangeResponse } from './dto/permission-audit.response';
import { PolicyChangeLogRepository } from './policy-change-log.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `from` after `to` is a client error, not an empty page. */
function checkWindow(query: { from?: string; to?: string }): void {
  if (query.from !== undefined && query.to !== undefined && new Date(query.from) > new Date(query.to)) {
    throw new ValidationError({ to: ['must not be before from'] });
  }
}

/**
 * Read side of governance: the decision audit (owned by authz-decision, asked over RPC with the
 * caller, whose tenant bounds the query there) and the policy change log (ours).
 */
@Injectable()
export class PermissionAuditService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly changes: PolicyChangeLogRepository,
  ) {}

  decisions(caller: TrustedCaller, query: DecisionAuditQuery): Promise<Page<DecisionAuditItem>> {
    checkWindow(query);
    const { subject, outcome, callerKind, clientId, module, resourceType, action, reasonCode, correlationId, from, to, pageIndex, pageSize } = query;
    return this.rpc.call(AuthzRpc.queryAudit, {
      caller,
      payload: { subject, outcome, callerKind, clientId, module, resourceType, action, reasonCode, correlationId, from, to, pageIndex, pageSize },
    });
  }

  /** One decision of the caller's tenant; another tenant's, an unknown and a malformed id are one 404. */
  async decision(caller: TrustedCaller, decisionId: string): Promise<DecisionAuditItem> {
    if (!UUID.test(decisionId)) throw new NotFoundError(`Decision ${decisionId}`);
    const page = await this.rpc.call(AuthzRpc.queryAudit, { caller, payload: { decisionId, pageIndex: 0, pageSize: 1 } });
    const [item] = page.items;
    if (!item) throw new NotFoundError(`Decision ${decisionId}`);
    return item;
  }

  async changeLog(tenantId: string, query: PolicyChangeQuery): Promise<Page<PolicyChangeResponse>> {
    checkWindow(query);
    const [rows, total] = await this.changes.list(tenantId, query);
    return pageOf(rows.map(PolicyChangeResponse.of), total, query);
  }
}
