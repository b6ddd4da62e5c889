import { Global, Module } from '@nestjs/common';
import { MenuProjectionCache } from '../menu/menu-projection.cache';
import { PolicyChanges } from './policy-changes';

/** `PolicyChanges` for every feature module of policy-management, and the menu projections it keeps fresh. */
@Global()
@Module({ providers: [PolicyChanges, MenuProjectionCache], exports: [PolicyChanges, MenuProjectionCache] })
export class PolicyChangeModule {}
