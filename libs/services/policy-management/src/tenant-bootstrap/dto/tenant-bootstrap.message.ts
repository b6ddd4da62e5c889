import { Type } from 'class-transformer';
import { IsDefined, IsString, Matches, MaxLength, MinLength, NotEquals, ValidateNested } from 'class-validator';
import { PLATFORM_TENANT, TenantBootstrapRequest } from '@lp/contracts';
import { AuthorizedRpcMessageDto } from '@lp/authz-guard';

/** Tenant ids as every `tenant_id` column holds them (varchar(64)); operations will mint them. */
const TENANT_ID = /^[a-z0-9][a-z0-9_-]*$/;

export class TenantBootstrapPayload implements TenantBootstrapRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @Matches(TENANT_ID, { message: 'tenantId must be lower-case letters, digits, "_" and "-", starting with a letter or digit' })
  @NotEquals(PLATFORM_TENANT, { message: `tenantId must not be the platform tenant "${PLATFORM_TENANT}": it is seeded, not bootstrapped` })
  tenantId: string;

  /** The subject (token `sub`) of the new tenant's first administrator. */
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @Matches(/^[^\p{Cc}]+$/u, { message: 'adminSubject must not contain control characters' })
  adminSubject: string;
}

export class TenantBootstrapMessage extends AuthorizedRpcMessageDto<TenantBootstrapPayload> {
  @IsDefined()
  @ValidateNested()
  @Type(() => TenantBootstrapPayload)
  payload: TenantBootstrapPayload;
}
