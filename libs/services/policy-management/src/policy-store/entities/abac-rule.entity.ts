import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A stored ABAC condition: `field` and `operator` are the decision core's integer enumerations
 * (`AbacField`, `AbacOperator` of `@lp/contracts` abac-rule-model; never renumbered, 0 unused).
 * `ck_abac_rule_conditions` rejects a condition whose field or operator is not an integer.
 */
export interface AbacConditionRecord {
  field: number;
  operator: number;
  value?: string | number | boolean | (string | number | boolean)[];
}

/**
 * Tenant ABAC rule (spec §2): condition and verdict persisted as integer enumerations. The filters
 * (`actions` as `AuthorizationAction` values, lower-case `modules` and `resourceTypes`) are empty
 * for "any". Disabled rules stay stored and are not read by the decision plane.
 */
@Entity({ name: 'abac_rule' })
@Index('ix_abac_rule_tenant_priority', ['tenantId', 'priority', 'id'])
export class AbacRuleEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description!: string | null;

  /** Ascending: 1 is tried before 2; ties broken by id. */
  @Column({ type: 'integer' })
  priority!: number;

  /** `AbacVerdict`: 1 Allow, 2 Deny (`ck_abac_rule_verdict`). */
  @Column({ type: 'smallint' })
  verdict!: number;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  conditions!: AbacConditionRecord[];

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  actions!: string[];

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  modules!: string[];

  @Column({ name: 'resource_types', type: 'text', array: true, default: () => `'{}'` })
  resourceTypes!: string[];

  /** Obligations the caller must honour when this rule allows. */
  @Column({ type: 'text', array: true, default: () => `'{}'` })
  obligations!: string[];

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
