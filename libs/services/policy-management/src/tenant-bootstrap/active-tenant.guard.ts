import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthorizationDeniedError, RpcMessage } from '@lp/contracts';
import { AuthenticatedRequest } from '@lp/platform/auth';
import { TenantStatusEntity } from '../policy-store';

/**
 * For the self-service routes that need no permission (`@SkipAuthorization`: my permissions, my
 * menu, my permission requests): every other route is denied to a suspended tenant's callers by
 * the decision itself (`TenantSuspended`), these ask no decision, so they read the same fact here,
 * from the table it lives in (one primary-key read). A suspended tenant's callers are denied
 * everywhere, self-service included. On RPC handlers the tenant is the message's caller's.
 */
@Injectable()
export class ActiveTenantGuard implements CanActivate {
  constructor(private readonly dataSource: DataSource) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const tenantId =
      context.getType() === 'rpc'
        ? context.switchToRpc().getData<Partial<RpcMessage<unknown>> | undefined>()?.caller?.tenantId
        : context.switchToHttp().getRequest<AuthenticatedRequest>().caller?.tenantId;
    if (typeof tenantId !== 'string') return true; // no caller: authentication (HTTP) or the contract's schema (RPC) answers
    const status = await this.dataSource.getRepository(TenantStatusEntity).findOne({ select: { status: true }, where: { tenantId } });
    if (status?.status === 'suspended') throw new AuthorizationDeniedError(`TenantSuspended: tenant ${tenantId} is suspended.`);
    return true;
  }
}
