import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError, Page, TrustedCaller, WebhookSubscriptionView, WebhookSubscriptionWithSecret } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { pageOf, PageQuery, pageWindow } from '@lp/platform/http';
import { SecretVault } from '../secrets/secret-vault';
import { generateSigningSecret, secretFingerprint } from '../secrets/signing-secret';
import { WebhookSubscriptionEntity } from '../store';
import { WebhookDispatcherConfig, webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { ValidCreateSubscription, ValidRotateSecret, ValidUpdateSubscription } from './dto/subscription.schemas';
import { subscriptionViewOf } from './subscription.mapping';
import { MAX_SUBSCRIPTIONS_PER_TENANT, SubscriptionLimitReachedError } from './subscriptions.errors';
import { SubscriptionFilter, SubscriptionsRepository } from './subscriptions.repository';

const SUBSCRIPTION = 'Webhook subscription';

/** Who a change is recorded as: the acting subject of a delegated caller, else the caller. */
const actorOf = (caller: TrustedCaller) => caller.actor ?? caller.subject;

/** The scheme and host of a callback URL: what an audit line shows (a query string may hold a receiver's token). */
function originOf(callbackUrl: string): string {
  try {
    return new URL(callbackUrl).origin;
  } catch {
    return '(unparsable)';
  }
}

/**
 * Webhook subscriptions (libs/services/webhook-dispatcher/docs/subscriptions.md). Routes and the
 * RPC handler call these with input already checked by `subscriptionSchemas` and a caller already
 * permitted by the guard; every query names the caller's tenant. Each change is one transaction
 * that bumps `revision`, and leaves an `audit:` line without any secret or full URL.
 */
@Injectable()
export class SubscriptionsService {
  private readonly logger = new Logger(SubscriptionsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: SubscriptionsRepository,
    private readonly vault: SecretVault,
    @InjectConfig(webhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
  ) {}

  /** A new subscription with a new signing secret, answered with it: the secret's only appearance besides a rotation. */
  async create(caller: TrustedCaller, input: ValidCreateSubscription): Promise<WebhookSubscriptionWithSecret> {
    const tenantId = caller.tenantId;
    const actor = actorOf(caller);
    const id = randomUUID();
    const secret = generateSigningSecret();
    const sealed = this.vault.seal(secret, { tenantId, subscriptionId: id });
    const row = await this.dataSource.transaction(async (manager) => {
      if ((await this.repository.countForCreate(manager, tenantId)) >= MAX_SUBSCRIPTIONS_PER_TENANT) {
        throw new SubscriptionLimitReachedError(MAX_SUBSCRIPTIONS_PER_TENANT);
      }
      await manager.query(
        `INSERT INTO "webhooks"."subscription"
           ("id", "tenant_id", "callback_url", "event_types", "description", "is_active", "max_retries",
            "secret_ciphertext", "secret_key_version", "secret_fingerprint", "revision", "created_by", "updated_by")
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, 1, $11, $11)`,
        [
          id,
          tenantId,
          input.callbackUrl,
          JSON.stringify(input.eventTypes),
          input.description ?? null,
          input.isActive ?? true,
          input.maxRetries ?? null,
          sealed.ciphertext,
          sealed.keyVersion,
          secretFingerprint(secret),
          actor,
        ],
      );
      return this.reread(manager, tenantId, id);
    });
    this.logger.log(
      `audit: webhook subscription ${id} created by ${actor} in tenant ${tenantId}: callback ${originOf(row.callbackUrl)}, event types ${row.eventTypes.join(' ')}, active ${row.isActive}`,
    );
    return { ...this.viewOf(row), secret };
  }

  async get(caller: TrustedCaller, id: string): Promise<WebhookSubscriptionView> {
    const row = await this.repository.findInTenant(caller.tenantId, id);
    if (!row) throw new NotFoundError(SUBSCRIPTION);
    return this.viewOf(row);
  }

  async list(caller: TrustedCaller, filter: SubscriptionFilter, page: PageQuery): Promise<Page<WebhookSubscriptionView>> {
    const [rows, total] = await this.repository.page(caller.tenantId, filter, pageWindow(page));
    return pageOf(
      rows.map((row) => this.viewOf(row)),
      total,
      page,
    );
  }

  /**
   * Changes what the body names. A change that changes nothing (every value as it is) writes
   * nothing and keeps the revision. `isActive: true` also clears `deactivatedReason`.
   */
  async update(caller: TrustedCaller, id: string, input: ValidUpdateSubscription): Promise<WebhookSubscriptionView> {
    const tenantId = caller.tenantId;
    const actor = actorOf(caller);
    const { row, changed } = await this.dataSource.transaction(async (manager) => {
      const current = await this.repository.findInTenant(tenantId, id, { manager, lock: true });
      if (!current) throw new NotFoundError(SUBSCRIPTION);
      const sets: string[] = [];
      const values: unknown[] = [];
      const changedFields: string[] = [];
      const set = (field: string, column: string, value: unknown, cast = '') => {
        values.push(value);
        sets.push(`"${column}" = $${values.length}${cast}`);
        changedFields.push(field);
      };
      if (input.callbackUrl !== undefined && input.callbackUrl !== current.callbackUrl) set('callbackUrl', 'callback_url', input.callbackUrl);
      if (input.eventTypes !== undefined && JSON.stringify(input.eventTypes) !== JSON.stringify(current.eventTypes)) {
        set('eventTypes', 'event_types', JSON.stringify(input.eventTypes), '::jsonb');
      }
      if (input.description !== undefined && input.description !== current.description) set('description', 'description', input.description);
      if (input.maxRetries !== undefined && input.maxRetries !== current.maxRetries) set('maxRetries', 'max_retries', input.maxRetries);
      if (input.isActive !== undefined && input.isActive !== current.isActive) set('isActive', 'is_active', input.isActive);
      if (input.isActive === true && current.deactivatedReason !== null) set('deactivatedReason', 'deactivated_reason', null);
      if (sets.length === 0) return { row: current, changed: [] };
      values.push(actor, tenantId, id);
      const n = values.length;
      await manager.query(
        `UPDATE "webhooks"."subscription"
            SET ${sets.join(', ')}, "revision" = "revision" + 1, "updated_by" = $${n - 2}, "updated_at" = now()
          WHERE "tenant_id" = $${n - 1} AND "id" = $${n}`,
        values,
      );
      return { row: await this.reread(manager, tenantId, id), changed: changedFields };
    });
    if (changed.length > 0) {
      const detail = changed.map((field) => (field === 'callbackUrl' ? `callbackUrl -> ${originOf(row.callbackUrl)}` : field)).join(', ');
      this.logger.log(`audit: webhook subscription ${id} updated by ${actor} in tenant ${tenantId}: ${detail} (revision ${row.revision})`);
    }
    return this.viewOf(row);
  }

  /**
   * Soft delete: the row stays (deliveries and the log reference it) but is gone from every route,
   * and in the same transaction each of its pending deliveries is cancelled, so none is attempted after.
   */
  async remove(caller: TrustedCaller, id: string): Promise<void> {
    const tenantId = caller.tenantId;
    const actor = actorOf(caller);
    const cancelled = await this.dataSource.transaction(async (manager) => {
      const current = await this.repository.findInTenant(tenantId, id, { manager, lock: true });
      if (!current) throw new NotFoundError(SUBSCRIPTION);
      await manager.query(
        `UPDATE "webhooks"."subscription"
            SET "deleted_at" = now(), "deleted_by" = $1, "revision" = "revision" + 1, "updated_by" = $1, "updated_at" = now()
          WHERE "tenant_id" = $2 AND "id" = $3`,
        [actor, tenantId, id],
      );
      const [, affected]: [unknown, number] = await manager.query(
        `UPDATE "webhooks"."delivery"
            SET "status" = 'cancelled', "next_attempt_at" = NULL, "locked_until" = NULL, "completed_at" = now(), "updated_at" = now()
          WHERE "subscription_id" = $1 AND "tenant_id" = $2 AND "status" = 'pending'`,
        [id, tenantId],
      );
      return affected;
    });
    this.logger.log(`audit: webhook subscription ${id} deleted by ${actor} in tenant ${tenantId}: ${cancelled} pending deliveries cancelled`);
  }

  /**
   * A new signing secret, answered once. The old one becomes the previous secret for the overlap
   * (`overlapSeconds`, default WEBHOOK_SECRET_ROTATION_OVERLAP_SECONDS), replacing any previous one
   * still in its overlap; an overlap of 0 drops it at once. The old ciphertext moves as it is: its
   * associated data (tenant, subscription) is the same.
   */
  async rotateSecret(caller: TrustedCaller, id: string, input: ValidRotateSecret): Promise<WebhookSubscriptionWithSecret> {
    const tenantId = caller.tenantId;
    const actor = actorOf(caller);
    const overlapSeconds = input.overlapSeconds ?? this.config.WEBHOOK_SECRET_ROTATION_OVERLAP_SECONDS;
    const secret = generateSigningSecret();
    const sealed = this.vault.seal(secret, { tenantId, subscriptionId: id });
    const row = await this.dataSource.transaction(async (manager) => {
      const current = await this.repository.findInTenant(tenantId, id, { manager, lock: true });
      if (!current) throw new NotFoundError(SUBSCRIPTION);
      const keep = overlapSeconds > 0;
      await manager.query(
        `UPDATE "webhooks"."subscription"
            SET "secret_ciphertext" = $1, "secret_key_version" = $2, "secret_fingerprint" = $3,
                "previous_secret_ciphertext" = $4, "previous_secret_key_version" = $5, "previous_secret_fingerprint" = $6,
                "previous_secret_expires_at" = CASE WHEN $4::text IS NULL THEN NULL ELSE now() + make_interval(secs => $7) END,
                "revision" = "revision" + 1, "updated_by" = $8, "updated_at" = now()
          WHERE "tenant_id" = $9 AND "id" = $10`,
        [
          sealed.ciphertext,
          sealed.keyVersion,
          secretFingerprint(secret),
          keep ? current.secretCiphertext : null,
          keep ? current.secretKeyVersion : null,
          keep ? current.secretFingerprint : null,
          overlapSeconds,
          actor,
          tenantId,
          id,
        ],
      );
      return this.reread(manager, tenantId, id);
    });
    this.logger.log(
      `audit: webhook subscription ${id} secret rotated by ${actor} in tenant ${tenantId}: new fingerprint ${row.secretFingerprint.slice(0, 12)}…, ` +
        (row.previousSecretExpiresAt ? `previous one signs until ${row.previousSecretExpiresAt.toISOString()}` : 'previous one dropped'),
    );
    return { ...this.viewOf(row), secret };
  }

  private viewOf(row: WebhookSubscriptionEntity): WebhookSubscriptionView {
    return subscriptionViewOf(row, this.config.WEBHOOK_MAX_RETRIES);
  }

  private async reread(manager: EntityManager, tenantId: string, id: string): Promise<WebhookSubscriptionEntity> {
    const row = await this.repository.findInTenant(tenantId, id, { manager });
    if (!row) throw new Error(`webhook subscription ${id} vanished inside its own transaction`);
    return row;
  }
}
