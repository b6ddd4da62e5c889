import { ApiProperty } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import { UserRoleEntity } from '../../policy-store/entities/user-role.entity';

/**
 * One binding of a role: the identity subject key holding it, when and by whom it was assigned.
 * Bindings have no expiry (time-boxed access is a temporary grant of permission codes, not a role).
 */
export class RoleMemberResponse {
  @ApiProperty({ example: 'alice', description: 'The identity subject key of the user holding the role.' }) subject!: string;
  @ApiProperty({ description: 'When the role was assigned (ISO 8601).' }) assignedAt!: string;
  @ApiProperty({
    example: 'admin',
    description: 'Who assigned it: the caller (its actor on a delegated call), or the platform for a binding it made itself (`policy-management:seed`).',
  })
  assignedBy!: string;

  static of(binding: UserRoleEntity): RoleMemberResponse {
    return { subject: binding.subject, assignedAt: binding.createdAt.toISOString(), assignedBy: binding.createdBy };
  }
}

export class RoleMemberPage extends PageMeta {
  @ApiProperty({ type: [RoleMemberResponse] }) items!: RoleMemberResponse[];
}
