import { DeadLetterEntity } from './dead-letter.entity';
import { DeliveryAttemptEntity } from './delivery-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity';

export * from './dead-letter.entity';
export * from './delivery-attempt.entity';
export * from './webhook-delivery.entity';
export * from './webhook-subscription.entity';

export const WEBHOOK_ENTITIES = [WebhookSubscriptionEntity, WebhookDeliveryEntity, DeliveryAttemptEntity, DeadLetterEntity];
