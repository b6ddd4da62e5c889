import { NotFoundError } from '@lp/contracts';

/** An unknown rule id, another tenant's included (tenant isolation: they look the same). */
export class AbacRuleNotFoundError extends NotFoundError {
  constructor(ruleId: string) {
    super(`ABAC rule ${ruleId}`);
  }
}
