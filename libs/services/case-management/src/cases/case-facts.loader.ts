import { Injectable } from '@nestjs/common';
import { getCaseSchema, NotFoundError, problemsOf, ValidationError } from '@lp/contracts';
import { ResourceFacts, ResourceFactsInput, ResourceFactsLoader } from '@lp/authz-guard';
import { CasesService } from './cases.service';

/**
 * The facts of one case for `GET /api/cases/{id}` and `cases.get`, read from the case row within
 * the caller's tenant: its id (ReBAC relations are keyed by it), owner, status, claim amount (the
 * `amount` ABAC rules read) and office. A case that is not there, an id that is not a UUID and
 * another tenant's case are one and the same `NotFound`, so no caller learns what another tenant
 * holds. The guard runs before the RPC contract's schema, so an RPC payload is checked here first:
 * a wrong shape is the contract's `Validation.Failed`, not a question for the decision service.
 */
@Injectable()
export class CaseFactsLoader implements ResourceFactsLoader {
  constructor(private readonly cases: CasesService) {}

  async load(input: ResourceFactsInput): Promise<ResourceFacts> {
    const row = await this.cases.findForFacts(input.caller.tenantId, this.caseIdOf(input));
    if (!row) throw new NotFoundError('Case');
    return {
      resourceId: row.id,
      owner: row.owner,
      status: row.status,
      amount: row.claimAmount,
      ...(row.officeId !== null ? { officeId: row.officeId } : {}),
    };
  }

  private caseIdOf(input: ResourceFactsInput): string {
    const fromRoute = input.params['id'];
    if (typeof fromRoute === 'string') return fromRoute;
    const parsed = getCaseSchema.safeParse(input.payload);
    if (!parsed.success) throw new ValidationError(problemsOf(parsed.error, 'payload'));
    return parsed.data.caseId;
  }
}
