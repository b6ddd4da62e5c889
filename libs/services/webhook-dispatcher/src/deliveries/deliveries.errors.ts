import { DomainError } from '@lp/contracts';

export class DeadLetterAlreadyReplayedError extends DomainError {
  constructor() {
    super('Webhook.DeadLetter.AlreadyReplayed', 409, 'This dead letter was replayed already; its delivery carries on from there (see the delivery log).');
  }
}

export class SubscriptionInactiveError extends DomainError {
  constructor() {
    super('Webhook.Subscription.Inactive', 409, 'The subscription is not active: activate it (PATCH isActive: true) before replaying its deliveries.');
  }
}

export class DeadLettersNotKeptError extends DomainError {
  constructor() {
    super(
      'Webhook.DeadLetter.NotKept',
      409,
      'Dead letters are discarded by this dispatcher’s policy (WEBHOOK_DEAD_LETTERS=discard): there is nothing to list or replay.',
    );
  }
}
