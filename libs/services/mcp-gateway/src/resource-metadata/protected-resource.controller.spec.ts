import type { Request } from 'express';
import type { PlatformConfig } from '@lp/platform/runtime';
import type { McpGatewayConfig } from '../mcp-gateway.config';
import { McpResourceUrls } from './mcp-resource-urls';
import { ProtectedResourceController } from './protected-resource.controller';

describe('ProtectedResourceController: authorization_servers', () => {
  const request = { protocol: 'http', headers: { host: '127.0.0.1:3000' } } as unknown as Request;
  const documentFor = (identity: Partial<PlatformConfig>) =>
    new ProtectedResourceController(new McpResourceUrls({} as McpGatewayConfig), { JWT_ISSUER: 'legal-platform', ...identity } as PlatformConfig).root(request);

  it('names JWT_ISSUER when tokens come from its JWKS', () => {
    expect(documentFor({ JWT_JWKS_URI: 'https://id.example/jwks', JWT_ISSUER: 'https://id.example' })).toMatchObject({
      resource: 'http://127.0.0.1:3000/mcp',
      authorization_servers: ['https://id.example'],
    });
  });

  it.each([
    ['the platform signs its own tokens (JWT_SECRET), even with a URL for an issuer', { JWT_ISSUER: 'https://platform.example' }],
    ['the issuer is no URL a client can discover from', { JWT_JWKS_URI: 'https://id.example/jwks', JWT_ISSUER: 'corporate-idp' }],
    ['the embedded default', {}],
  ])('is left out when %s', (_why, identity: Partial<PlatformConfig>) => {
    expect(documentFor(identity)).not.toHaveProperty('authorization_servers');
  });
});
