import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@lp/platform/config';
import { webhookDeliveryAttempts } from '@lp/platform/observability';
import { DeadLetterStore } from '../policies/dead-letter-store';
import { SubscriberRateLimit } from '../policies/subscriber-rate-limit';
import { WebhookSubscriptionEntity } from '../store';
import { SubscriptionSecrets } from '../subscriptions/subscription-secrets';
import { DeliveryOutcome, WebhookTransport } from '../transport/webhook-transport';
import { WebhookDispatcherConfig, webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { AttemptLogWriter } from './attempt-log-writer';
import { AttemptRecord, ClaimedDelivery, DeliveryRepository } from './delivery.repository';
import { AttemptVerdict, isAccepted, RetryPolicy, verdictOf } from './retry-schedule';
import { WebhookClock } from './webhook-clock';

/** What one attempt came to, for the ping route and tests. */
export interface AttemptResult {
  deliveryId: string;
  attemptNumber: number;
  verdict: AttemptVerdict['kind'] | 'postponed';
  outcome: DeliveryOutcome | null;
  nextAttemptAt: Date | null;
}

/** The delivery log's `errorMessage` for an HTTP answer that is not a success. */
function failureMessage(outcome: DeliveryOutcome): string | null {
  if (outcome.kind === 'error') return outcome.message;
  return isAccepted(outcome) ? null : `The receiver answered HTTP ${outcome.status}`;
}

function answerLabel(outcome: DeliveryOutcome): string {
  return outcome.kind === 'error' ? outcome.code : `${Math.floor(outcome.status / 100)}xx`;
}

/**
 * Runs one attempt of a claimed delivery (libs/services/webhook-dispatcher/docs/deliveries.md): asks the
 * rate-limit policy, signs and sends through the transport, decides what follows (retry schedule,
 * dead letter, 410), and records the attempt, the delivery's next state, the dead letter and a
 * 410's deactivation in one transaction. A crash before that commit leaves the delivery pending
 * under a lease that lapses, so it is attempted again (at least once; receivers deduplicate by the
 * delivery id, which every attempt carries).
 */
@Injectable()
export class DeliveryAttemptRunner {
  private readonly logger = new Logger(DeliveryAttemptRunner.name);
  readonly policy: RetryPolicy;

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly log: AttemptLogWriter,
    private readonly transport: WebhookTransport,
    private readonly secrets: SubscriptionSecrets,
    private readonly rateLimit: SubscriberRateLimit,
    private readonly deadLetters: DeadLetterStore,
    private readonly clock: WebhookClock,
    @InjectConfig(webhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
  ) {
    this.policy = {
      maxRetries: config.WEBHOOK_MAX_RETRIES,
      initialDelayMs: config.WEBHOOK_RETRY_INITIAL_DELAY_MS,
      maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS,
      multiplier: config.WEBHOOK_RETRY_BACKOFF_PERCENT / 100,
      jitter: 0.2,
    };
  }

  async attempt(delivery: ClaimedDelivery, subscription: WebhookSubscriptionEntity, holder: string): Promise<AttemptResult> {
    const target = { tenantId: delivery.tenantId, subscriptionId: delivery.subscriptionId };
    const wait = await this.rateLimit.acquire(target, this.clock.now());
    if (wait !== null) {
      const dueAt = new Date(this.clock.now().getTime() + Math.max(0, wait));
      await this.deliveries.postpone(delivery.id, holder, dueAt);
      return { deliveryId: delivery.id, attemptNumber: delivery.attemptCount, verdict: 'postponed', outcome: null, nextAttemptAt: dueAt };
    }

    const attemptedAt = this.clock.now();
    const outcome = await this.transport.send({
      tenantId: delivery.tenantId,
      subscriptionId: delivery.subscriptionId,
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      callbackUrl: subscription.callbackUrl,
      payload: delivery.payload,
      secrets: this.secrets.signingSecretsOf(subscription, attemptedAt),
      attemptedAt,
      traceparent: delivery.traceparent,
    });
    // A ping is one attempt, never retried and never dead-lettered.
    const maxRetries = delivery.kind === 'ping' ? 0 : (subscription.maxRetries ?? this.policy.maxRetries);
    const verdict = verdictOf(outcome, delivery.roundAttempts + 1, maxRetries, this.policy);
    const nextAttemptAt = verdict.kind === 'retry' ? new Date(this.clock.now().getTime() + verdict.delayMs) : null;
    const status: AttemptRecord['status'] = verdict.kind === 'succeeded' ? 'succeeded' : verdict.kind === 'retry' ? 'pending' : 'dead';
    const errorMessage = failureMessage(outcome);

    const record = {
      delivery,
      status,
      nextAttemptAt,
      outcome: verdict.kind === 'succeeded' ? ('succeeded' as const) : ('failed' as const),
      httpStatusCode: outcome.kind === 'response' ? outcome.status : null,
      responseBody: outcome.kind === 'response' ? outcome.body : null,
      errorCode: outcome.kind === 'error' ? outcome.code : null,
      errorMessage,
      latencyMs: outcome.latencyMs,
      attemptedAt,
    };
    // A success or a retry goes to the group-committed log; a death writes its dead letter (and a
    // 410 its deactivation) in the same transaction as the attempt.
    const attemptNumber =
      verdict.kind === 'succeeded' || verdict.kind === 'retry'
        ? await this.log.write(record)
        : await this.dataSource.transaction(async (manager) => {
            const number = await this.deliveries.recordAttempt(manager, record);
            if (verdict.kind === 'gone') await this.deliveries.deactivateGone(manager, delivery.subscriptionId);
            if (delivery.kind === 'event') {
              await this.deadLetters.store(manager, {
                tenantId: delivery.tenantId,
                subscriptionId: delivery.subscriptionId,
                deliveryId: delivery.id,
                eventId: delivery.eventId,
                eventType: delivery.eventType,
                reason: verdict.kind === 'gone' ? 'SubscriptionGone' : verdict.reason,
                attempts: number,
                lastStatusCode: outcome.kind === 'response' ? outcome.status : null,
                lastError: errorMessage,
              });
            }
            return number;
          });

    webhookDeliveryAttempts.inc({ verdict: verdict.kind, answer: answerLabel(outcome) });
    const answer = outcome.kind === 'response' ? `HTTP ${outcome.status}` : outcome.code;
    const line = `delivery ${delivery.id} (${delivery.eventType}, subscription ${delivery.subscriptionId}) attempt ${attemptNumber}: ${answer} in ${Math.round(outcome.latencyMs)} ms → ${verdict.kind}`;
    if (verdict.kind === 'succeeded') this.logger.debug(line);
    else if (verdict.kind === 'retry') this.logger.log(`${line}, next at ${nextAttemptAt?.toISOString()}`);
    else this.logger.warn(verdict.kind === 'gone' ? `${line}; the subscription is deactivated (410 Gone)` : line);
    return { deliveryId: delivery.id, attemptNumber, verdict: verdict.kind, outcome, nextAttemptAt };
  }
}
