import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { FeatureDefinitionEntity, FeatureOverrideEntity } from '../policy-store';

@Injectable()
export class FeatureRepository {
  constructor(
    @InjectRepository(FeatureDefinitionEntity) private readonly definitions: Repository<FeatureDefinitionEntity>,
    @InjectRepository(FeatureOverrideEntity) private readonly overrides: Repository<FeatureOverrideEntity>,
  ) {}

  /** Every definition (global) with the tenant's overrides only. */
  async listFor(tenantId: string): Promise<{ definitions: FeatureDefinitionEntity[]; overrides: Map<string, FeatureOverrideEntity> }> {
    const [definitions, overrides] = await Promise.all([this.definitions.find({ order: { code: 'ASC' } }), this.overrides.find({ where: { tenantId } })]);
    return { definitions, overrides: new Map(overrides.map((o) => [o.featureCode, o])) };
  }

  /** The definition, locked for the change: concurrent changes of one feature queue up. */
  definitionForChange(manager: EntityManager, featureCode: string): Promise<FeatureDefinitionEntity | null> {
    return manager.findOne(FeatureDefinitionEntity, { where: { code: featureCode }, lock: { mode: 'pessimistic_write' } });
  }

  override(manager: EntityManager, tenantId: string, featureCode: string): Promise<FeatureOverrideEntity | null> {
    return manager.findOne(FeatureOverrideEntity, { where: { tenantId, featureCode } });
  }
}
