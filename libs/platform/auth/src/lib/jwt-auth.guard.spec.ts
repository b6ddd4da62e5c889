import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { BearerTokenStrategy } from './bearer-token.strategy';
import { JwtAuthGuard } from './jwt-auth.guard';

describe('JwtAuthGuard outside HTTP', () => {
  it.each(['rpc', 'ws'])('lets a %s context through untouched: the caller travels inside the message', async (type) => {
    const strategy = await BearerTokenStrategy.create({ secret: 'g'.repeat(32), issuer: 'i', audience: 'a' });
    const guard = new JwtAuthGuard(new Reflector(), strategy);
    const context = {
      getType: () => type,
      switchToHttp: () => {
        throw new Error('an RPC context has no HTTP request');
      },
      getHandler: () => undefined,
      getClass: () => undefined,
    } as unknown as ExecutionContext;
    await expect(guard.canActivate(context)).resolves.toBe(true);
  });
});
