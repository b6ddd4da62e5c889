import { MessagePattern, Payload } from '@nestjs/microservices';
import { DecisionOutcome, RpcPatterns, TrustedCaller, ValidationError } from '@lp/contracts';
import { SkipAuthorization } from '@lp/authz-guard';
import { MAX_PAGE_SIZE } from '@lp/platform/http';
import { RpcController } from '@lp/platform/messaging';
import { DecisionAuditQuery } from '../audit';

export interface DecisionAuditQueryMessage {
  /** The caller the asking service authenticated; its tenant bounds the query. */
  caller: TrustedCaller;
  payload: { subject?: string; outcome?: DecisionOutcome; from?: string; to?: string; pageIndex?: number; pageSize?: number };
}

/**
 * Decision audit for policy-management's permission-audit routes, which check the caller's
 * permission before asking. The tenant always comes from the caller in the message.
 */
@RpcController()
export class DecisionAuditRpcController {
  constructor(private readonly audit: DecisionAuditQuery) {}

  @MessagePattern(RpcPatterns.authz.queryAudit)
  @SkipAuthorization('queried by policy-management, whose permission-audit routes are guarded')
  query(@Payload() message: DecisionAuditQueryMessage) {
    const tenantId = message?.caller?.tenantId;
    if (!tenantId) throw new ValidationError({ caller: ['the trusted caller (with its tenant) is required'] });
    const { pageIndex = 0, pageSize = 20, ...filters } = message.payload ?? {};
    if (!Number.isInteger(pageIndex) || pageIndex < 0) throw new ValidationError({ pageIndex: ['must be an integer >= 0'] });
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new ValidationError({ pageSize: [`must be an integer from 1 to ${MAX_PAGE_SIZE}`] });
    }
    return this.audit.query({ tenantId, ...filters, pageIndex, pageSize });
  }
}
