import type { LitigationCase } from '@lp/contracts';
import type { LitigationCaseEntity } from '../store';

export function litigationCaseOf(row: LitigationCaseEntity): LitigationCase {
  return {
    id: row.id,
    matterNumber: row.matterNumber,
    title: row.title,
    caseType: row.caseType,
    claimAmount: row.claimAmount,
    currency: row.currency,
    defendantName: row.defendantName,
    status: row.status,
    owner: row.owner,
    officeId: row.officeId,
    tenantId: row.tenantId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
