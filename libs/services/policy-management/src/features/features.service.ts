import { Injectable } from '@nestjs/common';
import { AuthorizationAction, EventTypes, FeatureChangedPayload, TrustedCaller } from '@lp/contracts';
import { PermissionCheck } from '@lp/authz-guard';
import { PolicyChanges, PolicyChangeTransaction } from '../policy-change';
import { FeatureDefinitionEntity, FeatureOverrideEntity } from '../policy-store';
import { FeatureList, FeatureResponse } from './dto/feature.response';
import { UpdateFeatureDto } from './dto/update-feature.dto';
import { FeatureRepository } from './feature.repository';
import { FeatureNotFoundError } from './features.errors';

/** The permission a global default needs on top of the route's `authorization.feature.update`. */
export const FEATURE_DEFAULT_UPDATE = { module: 'authorization', resource: 'feature-default', action: AuthorizationAction.Update } as const;

@Injectable()
export class FeaturesService {
  constructor(
    private readonly repository: FeatureRepository,
    private readonly changes: PolicyChanges,
    private readonly permissions: PermissionCheck,
  ) {}

  async list(tenantId: string): Promise<FeatureList> {
    const { definitions, overrides } = await this.repository.listFor(tenantId);
    return { items: definitions.map((d) => FeatureResponse.of(d, overrides.get(d.code))) };
  }

  /**
   * `tenant`: upserts the caller's tenant override. `global`: changes the default of every tenant,
   * and needs `authorization.feature-default.update` as well, asked before anything is read or
   * written. A value equal to the one in force for that scope changes nothing and records nothing.
   */
  async update(caller: TrustedCaller, featureCode: string, body: UpdateFeatureDto): Promise<FeatureResponse> {
    if (body.scope === 'global') await this.permissions.require(caller, { ...FEATURE_DEFAULT_UPDATE, facts: { resourceId: featureCode } });
    return this.changes.apply(caller, async (tx) => {
      const definition = await this.repository.definitionForChange(tx.manager, featureCode);
      if (!definition) throw new FeatureNotFoundError(featureCode);
      const override = await this.repository.override(tx.manager, caller.tenantId, featureCode);
      if (body.scope === 'global') return this.setDefault(tx, definition, override, body.enabled);
      return this.setOverride(tx, definition, override, body.enabled);
    });
  }

  /** Removes the caller's tenant override, so the global default applies again. No override: nothing to do. */
  async clearOverride(caller: TrustedCaller, featureCode: string): Promise<void> {
    await this.changes.apply(caller, async (tx) => {
      const definition = await this.repository.definitionForChange(tx.manager, featureCode);
      if (!definition) throw new FeatureNotFoundError(featureCode);
      const override = await this.repository.override(tx.manager, caller.tenantId, featureCode);
      if (!override) return;
      await tx.manager.delete(FeatureOverrideEntity, { tenantId: caller.tenantId, featureCode });
      await this.record(tx, 'feature.override-cleared', {
        featureCode,
        scope: 'tenant',
        tenantId: caller.tenantId,
        enabled: definition.defaultEnabled,
        previous: override.enabled,
      });
    });
  }

  private async setOverride(
    tx: PolicyChangeTransaction,
    definition: FeatureDefinitionEntity,
    override: FeatureOverrideEntity | null,
    enabled: boolean,
  ): Promise<FeatureResponse> {
    const { tenantId } = tx.caller;
    if (override?.enabled === enabled) return FeatureResponse.of(definition, override);
    await tx.manager.upsert(
      FeatureOverrideEntity,
      { tenantId, featureCode: definition.code, enabled, updatedBy: tx.caller.actor ?? tx.caller.subject },
      { conflictPaths: ['tenantId', 'featureCode'] },
    );
    await this.record(tx, 'feature.tenant-changed', {
      featureCode: definition.code,
      scope: 'tenant',
      tenantId,
      enabled,
      previous: override ? override.enabled : null,
    });
    return FeatureResponse.of(definition, await this.repository.override(tx.manager, tenantId, definition.code));
  }

  private async setDefault(
    tx: PolicyChangeTransaction,
    definition: FeatureDefinitionEntity,
    override: FeatureOverrideEntity | null,
    enabled: boolean,
  ): Promise<FeatureResponse> {
    if (definition.defaultEnabled === enabled) return FeatureResponse.of(definition, override);
    await tx.manager.update(FeatureDefinitionEntity, { code: definition.code }, { defaultEnabled: enabled });
    await this.record(tx, 'feature.global-changed', {
      featureCode: definition.code,
      scope: 'global',
      tenantId: null,
      enabled,
      previous: definition.defaultEnabled,
    });
    return FeatureResponse.of({ ...definition, defaultEnabled: enabled }, override);
  }

  /** Change log (tenant null for a global default) and `authorization.feature.changed`. */
  private record(tx: PolicyChangeTransaction, change: string, payload: FeatureChangedPayload): Promise<void> {
    const value = (v: boolean | null) => (payload.scope === 'global' ? { globalDefault: v } : { tenantOverride: v });
    return tx.record({
      change,
      tenantId: payload.tenantId,
      targetType: 'feature',
      targetId: payload.featureCode,
      before: value(payload.previous),
      after: value(change === 'feature.override-cleared' ? null : payload.enabled),
      events: [{ type: EventTypes.authorization.featureChanged, payload }],
    });
  }
}
