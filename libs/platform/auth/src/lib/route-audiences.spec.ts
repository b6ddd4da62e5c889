import type { ExecutionContext } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { signAccessToken } from './access-token.issuer';
import { AuthenticationFailure } from './auth.errors';
import { BearerTokenStrategy } from './bearer-token.strategy';
import { JwtAuthGuard } from './jwt-auth.guard';
import { AcceptAudiences, audienceAccepted, RouteAudiences } from './route-audiences';

describe('audienceAccepted', () => {
  it.each([
    ['a', true],
    [['x', 'a'], true],
    ['https://h/mcp', true],
    ['b', false],
    [['x', 'y'], false],
    [[], false],
    [undefined, false],
    [[1, null, { a: 1 }], false],
  ])('aud %j -> %s', (aud, accepted) => {
    expect(audienceAccepted(aud, ['a', 'https://h/mcp'])).toBe(accepted);
  });
});

describe('JwtAuthGuard with @AcceptAudiences', () => {
  const secret = 'g'.repeat(32);
  class ResourceAudience implements RouteAudiences {
    audiencesFor(request: Request): string[] {
      return [`http://${request.headers.host}/mcp`];
    }
  }
  class Broken implements RouteAudiences {
    audiencesFor(): string[] {
      throw new Error('no base URL');
    }
  }

  /** The guard's answer for a token with `aud` on a route that accepts `provider`'s audiences (none without one). */
  async function admits(aud: string, provider?: new () => RouteAudiences): Promise<true | string> {
    const strategy = await BearerTokenStrategy.create({ secret, issuer: 'i', audience: 'platform' });
    const moduleRef = { get: (type: new () => RouteAudiences) => new type() } as unknown as ModuleRef;
    const guard = new JwtAuthGuard(new Reflector(), strategy, moduleRef);
    class Controller {
      handle(): string {
        return 'handled';
      }
    }
    if (provider) AcceptAudiences(provider)(Controller);
    const token = signAccessToken({ sub: 'u', tenantId: 't' }, { secret, issuer: 'i', audience: aud });
    const request = { headers: { host: '127.0.0.1:3000', authorization: `Bearer ${token}` }, get: () => undefined };
    const response = { headersSent: false, setHeader: () => undefined };
    const context = {
      getType: () => 'http',
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
      getHandler: () => Controller.prototype.handle,
      getClass: () => Controller,
    } as unknown as ExecutionContext;
    try {
      return (await guard.canActivate(context)) as true;
    } catch (error) {
      return (error as Error).message;
    }
  }

  it("accepts the route's audience there, and the configured one too", async () => {
    await expect(admits('http://127.0.0.1:3000/mcp', ResourceAudience)).resolves.toBe(true);
    await expect(admits('platform', ResourceAudience)).resolves.toBe(true);
  });

  it('refuses it on a route that does not accept it, and another host’s resource on the route that does', async () => {
    await expect(admits('http://127.0.0.1:3000/mcp')).resolves.toBe(AuthenticationFailure.wrongAudience);
    await expect(admits('http://localhost:3000/mcp', ResourceAudience)).resolves.toBe(AuthenticationFailure.wrongAudience);
  });

  it('accepts only the configured audience when the provider fails (fail closed)', async () => {
    await expect(admits('http://127.0.0.1:3000/mcp', Broken)).resolves.toBe(AuthenticationFailure.wrongAudience);
    await expect(admits('platform', Broken)).resolves.toBe(true);
  });
});
