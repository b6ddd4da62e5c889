import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type ResourceRelationName = 'owner' | 'member' | 'viewer';
export const RESOURCE_RELATION_NAMES: readonly ResourceRelationName[] = ['owner', 'member', 'viewer'];
/** A share names a user subject or a role (by its tenant-local name). */
export type RelationSubjectKind = 'user' | 'role';
export const RELATION_SUBJECT_KINDS: readonly RelationSubjectKind[] = ['user', 'role'];

/**
 * Tenant-local relation of a subject to one resource instance (spec §2; ReBAC Lite). Resource
 * type and id are plain values: no navigation into another module's data.
 */
@Entity({ name: 'resource_relation' })
@Index('uq_resource_relation', ['tenantId', 'subject', 'resourceType', 'resourceId', 'relation', 'subjectKind'], { unique: true })
@Index('ix_resource_relation_resource', ['tenantId', 'resourceType', 'resourceId'])
export class ResourceRelationEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  /** A user subject, or a role name when `subjectKind` is `role`. */
  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  @Column({ name: 'subject_kind', type: 'varchar', length: 10, default: 'user' })
  subjectKind!: RelationSubjectKind;

  @Column({ name: 'resource_type', type: 'varchar', length: 60 })
  resourceType!: string;

  @Column({ name: 'resource_id', type: 'varchar', length: 200 })
  resourceId!: string;

  @Column({ type: 'varchar', length: 20 })
  relation!: ResourceRelationName;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy!: string;
}
