import { Global, Module } from '@nestjs/common';
import { PolicyChanges } from './policy-changes';

/** `PolicyChanges` for every feature module of policy-management. */
@Global()
@Module({ providers: [PolicyChanges], exports: [PolicyChanges] })
export class PolicyChangeModule {}
