import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '@lp/platform/http';

export const DELEGATION_LIST_SCOPES = ['made', 'received', 'tenant'] as const;
export type DelegationListScope = (typeof DELEGATION_LIST_SCOPES)[number];

export class ListDelegationsQuery extends PageQuery {
  @ApiPropertyOptional({
    enum: DELEGATION_LIST_SCOPES,
    default: 'made',
    description: '`made`: delegations the caller made (default); `received`: delegations to the caller as actor; `tenant`: every delegation of the tenant.',
  })
  @IsOptional()
  @IsIn(DELEGATION_LIST_SCOPES)
  scope: DelegationListScope = 'made';
}
