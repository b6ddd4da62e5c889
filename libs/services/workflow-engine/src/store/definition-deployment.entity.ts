import { Column, Entity, PrimaryColumn } from 'typeorm';

export const DEPLOYMENT_ACTIONS = ['publish', 'legacy-deploy', 'grayscale', 'complete-grayscale', 'rollback'] as const;
export type DeploymentAction = (typeof DEPLOYMENT_ACTIONS)[number];

/** One binding change, append-only: who moved the active version of a key from where to where. */
@Entity({ schema: 'workflow', name: 'definition_deployment' })
export class DefinitionDeploymentEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  @Column({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'varchar', length: 24 })
  action!: DeploymentAction;

  @Column({ name: 'from_version_id', type: 'uuid', nullable: true })
  fromVersionId!: string | null;

  @Column({ name: 'to_version_id', type: 'uuid' })
  toVersionId!: string;

  @Column({ type: 'varchar', length: 255 })
  actor!: string;

  @Column({ type: 'timestamptz' })
  at!: Date;
}
