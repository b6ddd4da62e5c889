import { DomainError } from '@lp/contracts';

/** Subscriptions a tenant may hold at once (not deleted, active or not): bounds the fan-out of one event. */
export const MAX_SUBSCRIPTIONS_PER_TENANT = 100;

export class SubscriptionLimitReachedError extends DomainError {
  constructor(limit: number) {
    super('Webhook.Subscription.LimitReached', 409, `The tenant already has ${limit} webhook subscriptions, the most it may hold; delete one first.`);
  }
}
