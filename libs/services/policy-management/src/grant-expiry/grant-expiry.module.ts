import { Module } from '@nestjs/common';
import { GrantExpiry } from './grant-expiry.service';

/** The `policy-management.expire-grants` job: records the end of grants and delegations that ran out. */
@Module({ providers: [GrantExpiry], exports: [GrantExpiry] })
export class GrantExpiryModule {}
