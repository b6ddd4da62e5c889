import type { ExecutionContext } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { BearerChallenge, BearerChallengeParameters, formatBearerChallenge } from './bearer-challenge';
import { BearerTokenStrategy } from './bearer-token.strategy';
import { JwtAuthGuard } from './jwt-auth.guard';

describe('formatBearerChallenge', () => {
  it('is the bare scheme without parameters', () => {
    expect(formatBearerChallenge({})).toBe('Bearer');
  });

  it('quotes and escapes the values, in order', () => {
    expect(formatBearerChallenge({ resource_metadata: 'https://h/x"y\\', error: 'invalid_token' })).toBe(
      'Bearer resource_metadata="https://h/x\\"y\\\\", error="invalid_token"',
    );
  });

  it('drops a parameter whose name or value could split the header', () => {
    expect(formatBearerChallenge({ 'a b': 'x', ok: 'v\r\nX-Injected: 1' })).toBe('Bearer');
  });
});

describe('JwtAuthGuard challenge with @BearerChallenge', () => {
  class MetadataChallenge implements BearerChallengeParameters {
    parametersFor(request: Request): Record<string, string> {
      return { resource_metadata: `http://${request.headers.host}/.well-known/oauth-protected-resource/mcp` };
    }
  }
  class Broken implements BearerChallengeParameters {
    parametersFor(): Record<string, string> {
      throw new Error('no base URL');
    }
  }

  async function challengeOf(provider: new () => BearerChallengeParameters, authorization?: string): Promise<string | undefined> {
    const strategy = await BearerTokenStrategy.create({ secret: 'g'.repeat(32), issuer: 'i', audience: 'a' });
    const moduleRef = { get: (type: new () => BearerChallengeParameters) => new type() } as unknown as ModuleRef;
    const guard = new JwtAuthGuard(new Reflector(), strategy, moduleRef);
    class Controller {
      handle(): string {
        return 'handled';
      }
    }
    BearerChallenge(provider)(Controller);
    const headers: Record<string, string> = {};
    const request = { headers: { host: '127.0.0.1:3000', ...(authorization ? { authorization } : {}) }, get: () => undefined };
    const response = { headersSent: false, setHeader: (name: string, value: string) => (headers[name] = value) };
    const context = {
      getType: () => 'http',
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
      getHandler: () => Controller.prototype.handle,
      getClass: () => Controller,
    } as unknown as ExecutionContext;
    await expect(guard.canActivate(context)).rejects.toMatchObject({ status: 401 });
    return headers['WWW-Authenticate'];
  }

  it('names the resource metadata when no token was sent', async () => {
    await expect(challengeOf(MetadataChallenge)).resolves.toBe('Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp"');
  });

  it('adds invalid_token when a token was sent and refused', async () => {
    await expect(challengeOf(MetadataChallenge, 'Bearer not.a.jwt')).resolves.toBe(
      'Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp", error="invalid_token"',
    );
  });

  it('falls back to the plain challenge when the provider fails', async () => {
    await expect(challengeOf(Broken, 'Bearer x')).resolves.toBe('Bearer error="invalid_token"');
  });
});
