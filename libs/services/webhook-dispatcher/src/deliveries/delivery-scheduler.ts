import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectConfig } from '@lp/platform/config';
import { webhookDeliveryBacklog, webhookDeliveryOldestDueAge } from '@lp/platform/observability';
import { WebhookSubscriptionEntity } from '../store';
import { WebhookDispatcherConfig, webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { AttemptResult, DeliveryAttemptRunner } from './delivery-attempt.runner';
import { ClaimedDelivery, DeliveryRepository } from './delivery.repository';
import { WebhookClock } from './webhook-clock';

/** While the database refuses the claim, wait this long between tries (doubling up to the poll interval × 30). */
const ERROR_BACKOFF_MS = 500;
const BACKLOG_SAMPLE_MS = 5_000;

/**
 * Runs due deliveries (libs/services/webhook-dispatcher/docs/deliveries.md, Scheduling). The schedule is the
 * `next_attempt_at` column, so nothing is lost when a dispatcher stops: another replica, or this
 * one after a restart, claims what came due. The loop claims with `FOR UPDATE SKIP LOCKED` and a
 * lease, so replicas share the work without attempting one delivery twice at once.
 *
 * Isolation: at most `WEBHOOK_CONCURRENCY` attempts run at once in this process, and at most
 * `WEBHOOK_SUBSCRIPTION_CONCURRENCY` of them for one subscription; a subscription at its share is
 * left out of the claim, so a slow receiver holds only its own slots and never the others'.
 */
@Injectable()
export class DeliveryScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryScheduler.name);
  /** Names this process's leases (a restarted process is another holder: its old leases lapse). */
  readonly holder = `${hostname().slice(0, 40)}-${randomBytes(6).toString('hex')}`;
  private readonly running = new Map<string, Promise<AttemptResult | undefined>>();
  private readonly perSubscription = new Map<string, number>();
  private stopped = true;
  private loop?: Promise<void>;
  private wake?: () => void;
  private woken = false;
  private lastBacklogSample = 0;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly runner: DeliveryAttemptRunner,
    private readonly clock: WebhookClock,
    @InjectConfig(webhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.loop = this.run();
  }

  /** Stops claiming, then lets the attempts in flight finish (each bounded by its timeout). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.nudge();
    await this.loop;
    await Promise.allSettled(this.running.values());
  }

  /** Looks for due deliveries now instead of at the next poll (after new deliveries were committed). */
  nudge(): void {
    this.woken = true;
    this.wake?.();
  }

  /**
   * Claims and runs everything due now, and resolves once those attempts are recorded: the flush
   * handle for tests and for a manual run. The background loop keeps running beside it.
   */
  async runDue(): Promise<AttemptResult[]> {
    const results: AttemptResult[] = [];
    for (;;) {
      const started = await this.claimAndStart();
      if (started.length === 0) {
        if (this.running.size === 0) return results;
        await Promise.race(this.running.values());
        continue;
      }
      for (const result of await Promise.all(started)) if (result) results.push(result);
    }
  }

  /** Attempts running in this process, for tests and the backlog. */
  get inFlight(): number {
    return this.running.size;
  }

  private async run(): Promise<void> {
    let errorBackoff = ERROR_BACKOFF_MS;
    while (!this.stopped) {
      this.woken = false;
      try {
        const started = await this.claimAndStart();
        errorBackoff = ERROR_BACKOFF_MS;
        await this.sampleBacklog();
        // A full claim may have left more due: look again as soon as a slot frees (the attempt nudges).
        if (started.length > 0 && this.running.size < this.config.WEBHOOK_CONCURRENCY) continue;
        await this.idle(this.config.WEBHOOK_POLL_INTERVAL_MS);
      } catch (error) {
        if (this.stopped) break;
        this.logger.warn({ err: error }, `Claiming due webhook deliveries failed; trying again in ${errorBackoff} ms`);
        await this.idle(errorBackoff);
        errorBackoff = Math.min(errorBackoff * 2, this.config.WEBHOOK_POLL_INTERVAL_MS * 30);
      }
    }
  }

  private idle(ms: number): Promise<void> {
    if (this.woken || this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  /** One claim for the free slots; starts each claimed attempt and resolves their promises. */
  private async claimAndStart(): Promise<Array<Promise<AttemptResult | undefined>>> {
    const free = this.config.WEBHOOK_CONCURRENCY - this.running.size;
    if (free <= 0 || this.stopped) return [];
    // While attempts run, claim only once a quarter of the slots is free: one claim per finished
    // attempt would cost a claim statement per delivery.
    if (this.running.size > 0 && free < Math.max(1, Math.floor(this.config.WEBHOOK_CONCURRENCY / 4))) return [];
    const now = this.clock.now();
    const leaseUntil = new Date(now.getTime() + this.config.WEBHOOK_ATTEMPT_TIMEOUT_MS + this.config.WEBHOOK_LEASE_MARGIN_MS);
    const accepted = await this.deliveries.claimDue(now, leaseUntil, this.holder, free, this.config.WEBHOOK_SUBSCRIPTION_CONCURRENCY, this.perSubscription);
    if (accepted.length === 0) return [];
    for (const delivery of accepted) this.perSubscription.set(delivery.subscriptionId, (this.perSubscription.get(delivery.subscriptionId) ?? 0) + 1);
    const subscriptions = await this.deliveries.subscriptions(accepted.map((d) => d.subscriptionId));
    return accepted.map((delivery) => this.start(delivery, subscriptions.get(delivery.subscriptionId)));
  }

  private start(delivery: ClaimedDelivery, subscription: WebhookSubscriptionEntity | undefined): Promise<AttemptResult | undefined> {
    // Started on the next microtask, so the attempt is in `running` before it can finish.
    const attempt = Promise.resolve()
      .then(() => {
        if (!subscription) throw new Error(`subscription ${delivery.subscriptionId} of delivery ${delivery.id} not found`);
        return this.runner.attempt(delivery, subscription, this.holder);
      })
      .catch((error: unknown) => {
        // Nothing was recorded: the lease lapses and the delivery is attempted again.
        this.logger.error({ err: error }, `Attempt of delivery ${delivery.id} failed before it was recorded; it stays due`);
        return undefined;
      })
      .finally(() => {
        this.running.delete(delivery.id);
        const left = (this.perSubscription.get(delivery.subscriptionId) ?? 1) - 1;
        if (left > 0) this.perSubscription.set(delivery.subscriptionId, left);
        else this.perSubscription.delete(delivery.subscriptionId);
        this.nudge();
      });
    this.running.set(delivery.id, attempt);
    return attempt;
  }

  private async sampleBacklog(): Promise<void> {
    const now = Date.now();
    if (now - this.lastBacklogSample < BACKLOG_SAMPLE_MS) return;
    this.lastBacklogSample = now;
    const backlog = await this.deliveries.dueBacklog(this.clock.now());
    webhookDeliveryBacklog.set(backlog.count);
    webhookDeliveryOldestDueAge.set(backlog.oldestDueSeconds);
  }
}
