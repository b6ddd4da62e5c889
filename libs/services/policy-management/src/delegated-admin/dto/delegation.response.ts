import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import { DelegatedGrantEntity } from '../../policy-store/entities/delegated-grant.entity';
import { delegationStatus, DelegationStatus } from '../delegation-window';

export class DelegationResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() delegator!: string;
  @ApiProperty() actor!: string;
  @ApiProperty({ type: [String] }) permissionCodes!: string[];
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) reason!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' }) revokedAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ enum: ['active', 'expired', 'revoked'] }) status!: DelegationStatus;

  static of(grant: DelegatedGrantEntity, now = new Date()): DelegationResponse {
    return {
      id: grant.id,
      delegator: grant.delegator,
      actor: grant.actor,
      permissionCodes: [...grant.permissionCodes],
      expiresAt: grant.expiresAt.toISOString(),
      reason: grant.reason,
      revokedAt: grant.revokedAt ? grant.revokedAt.toISOString() : null,
      createdAt: grant.createdAt.toISOString(),
      status: delegationStatus(grant, now),
    };
  }
}

export class DelegationPage extends PageMeta {
  @ApiProperty({ type: [DelegationResponse] }) items!: DelegationResponse[];
}
