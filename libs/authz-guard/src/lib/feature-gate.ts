import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AuthorizationEvents, AuthorizationUnavailableError, AuthzRpc, DomainError, eventFamily, TrustedCaller } from '@lp/contracts';
import { EventBus, RpcClient, RpcRemoteError } from '@lp/platform/messaging';
import { AUTHORIZE_GUARD_OPTIONS, AuthorizeGuardOptions } from './decision-client';

/** A write or background job of a feature the tenant has switched off. */
export class FeatureDisabledError extends DomainError {
  constructor(featureCode: string) {
    super('Feature.Disabled', 403, `The feature ${featureCode} is switched off for this tenant.`);
  }
}

const FeatureChanges = eventFamily('authorization.feature.changed', { featureChanged: AuthorizationEvents.featureChanged });

/** How long an answer is trusted without any event: the bound on staleness should an event be lost. */
export const FEATURE_GATE_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * A service's own check of a tenant feature (`workflow.runtime` before every workflow write and
 * job), for features that gate a service's operations rather than a module's permissions (those are
 * in every decision). Answers are asked of authz-decision (`authz.feature.status`) and cached per
 * tenant and feature in this process; every instance takes its own copy of
 * `authorization.feature.changed` and drops what it makes stale (a global default: that feature for
 * every tenant; an override: that tenant's entry), so a switch takes effect as soon as the event
 * arrives (milliseconds after the change commits), and at the latest after FEATURE_GATE_TTL_MS.
 *
 * The subscription is made on first use, before the first answer is cached, so no answer can be
 * cached without an invalidation path. An answer fetched while an event for its key arrived is not
 * stored (the generation check). No answer from authz-decision → 503 `Authorization.Unavailable`:
 * fail closed, told apart from "off".
 */
@Injectable()
export class FeatureGate {
  private readonly logger = new Logger(FeatureGate.name);
  private readonly answers = new LRUCache<string, boolean>({ max: MAX_ENTRIES, ttl: FEATURE_GATE_TTL_MS });
  /** Bumped by every event touching a key (or, under `*`, a feature everywhere); an answer fetched across a bump is not kept. */
  private readonly generations = new Map<string, number>();
  private subscribed?: Promise<void>;

  constructor(
    private readonly rpc: RpcClient,
    private readonly bus: EventBus,
    @Inject(AUTHORIZE_GUARD_OPTIONS) private readonly options: AuthorizeGuardOptions,
  ) {}

  /** Whether `featureCode` is on for the caller's tenant. */
  async isEnabled(caller: TrustedCaller, featureCode: string): Promise<boolean> {
    try {
      await (this.subscribed ??= this.subscribe());
    } catch (error) {
      // Without the invalidation path nothing may be cached, and nothing is known: fail closed as an outage.
      this.logger.warn(`feature changes cannot be followed: ${error instanceof Error ? error.message : String(error)}`);
      throw new AuthorizationUnavailableError();
    }
    const key = FeatureGate.key(caller.tenantId, featureCode);
    const cached = this.answers.get(key);
    if (cached !== undefined) return cached;
    const generation = this.generationOf(caller.tenantId, featureCode);
    const enabled = await this.ask(caller, featureCode);
    if (this.generationOf(caller.tenantId, featureCode) === generation) this.answers.set(key, enabled);
    return enabled;
  }

  /** Throws 403 `Feature.Disabled` when the feature is off for the caller's tenant. */
  async require(caller: TrustedCaller, featureCode: string): Promise<void> {
    if (!(await this.isEnabled(caller, featureCode))) throw new FeatureDisabledError(featureCode);
  }

  private async ask(caller: TrustedCaller, featureCode: string): Promise<boolean> {
    try {
      const status = await this.rpc.call(AuthzRpc.featureStatus, { caller, payload: { featureCode } }, { timeoutMs: this.options.decisionTimeoutMs });
      return status.enabled === true;
    } catch (error) {
      if (error instanceof RpcRemoteError && error.problem.status < 500) throw error;
      this.logger.warn(`feature ${featureCode} status unavailable: ${error instanceof Error ? error.message : String(error)}`);
      throw new AuthorizationUnavailableError();
    }
  }

  private async subscribe(): Promise<void> {
    try {
      await this.bus.subscribeTo(FeatureChanges, { mode: 'instance', consumer: `${this.options.service}-feature-gate` }, async ({ envelope, payload }) => {
        const featureCode = payload?.featureCode;
        if (!featureCode) {
          // A payload we cannot read: forget everything rather than keep a possibly stale answer.
          this.bump('*', '*');
          this.answers.clear();
          return;
        }
        const tenantId = payload.scope === 'tenant' && payload.tenantId ? payload.tenantId : '*';
        this.bump(tenantId, featureCode);
        if (tenantId === '*') {
          for (const key of [...this.answers.keys()]) if (key.endsWith(`\u0000${featureCode}`)) this.answers.delete(key);
        } else {
          this.answers.delete(FeatureGate.key(tenantId, featureCode));
        }
        this.logger.debug(`${envelope.eventType} ${envelope.eventId}: ${featureCode} answers dropped for ${tenantId === '*' ? 'every tenant' : tenantId}`);
      });
    } catch (error) {
      this.subscribed = undefined; // the next call tries again; nothing was cached meanwhile
      throw error;
    }
  }

  private bump(tenantId: string, featureCode: string): void {
    const key = FeatureGate.key(tenantId, featureCode);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }

  /** The sum of the generations that cover a tenant's feature: its own, the feature's everywhere, everything. */
  private generationOf(tenantId: string, featureCode: string): number {
    const of = (key: string) => this.generations.get(key) ?? 0;
    return of(FeatureGate.key(tenantId, featureCode)) + of(FeatureGate.key('*', featureCode)) + of(FeatureGate.key('*', '*'));
  }

  private static key(tenantId: string, featureCode: string): string {
    return `${tenantId}\u0000${featureCode}`;
  }
}
