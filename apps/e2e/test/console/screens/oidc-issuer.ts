import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { errors as ProviderErrors } from 'oidc-provider';

/** The console's public client at the issuer (`CONSOLE_OIDC_CLIENT_ID`). */
export const CONSOLE_CLIENT_ID = 'console';
/** The audience the platform expects (`JWT_AUDIENCE`, its default). */
export const PLATFORM_AUDIENCE = 'legal-platform-api';
/** An account whose access tokens name no tenant: the platform refuses them. */
export const NO_TENANT_ACCOUNT = 'outsider';
/** The platform's API as a resource server of the issuer (RFC 8707 wants an absolute URI). */
const PLATFORM_RESOURCE = 'urn:legal-platform:api';

const OIDC_PROVIDER_WARNING = 'oidc-provider WARNING: ';

/**
 * A real OpenID Provider (panva's oidc-provider) in the test process, on 127.0.0.1: discovery, the
 * authorization endpoint with its development login and consent pages (any login, any password),
 * the token endpoint and the JWKS the platform verifies tokens with. Its access tokens are JWTs
 * for the platform's API (resource indicators): `aud` the platform's audience, `tenant_id` `default`
 * (except for `NO_TENANT_ACCOUNT`), `sub` the login. Subject `admin` of tenant `default` is the
 * platform's seeded administrator.
 *
 * It listens first, so the platform can be started with its URL; `serve` opens it once the platform's
 * address, hence the console's redirect URI, is known.
 */
export class TestIssuer {
  private handler?: (req: IncomingMessage, res: ServerResponse) => void;
  /** Errors the provider hit while answering (a test fails on any). */
  readonly serverErrors: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async listen(): Promise<TestIssuer> {
    const routed: { issuer?: TestIssuer } = {};
    const server = createServer((req, res) => routed.issuer?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    routed.issuer = new TestIssuer(server, `http://127.0.0.1:${port}`);
    return routed.issuer;
  }

  get jwksUri(): string {
    return `${this.url}/jwks`;
  }

  /** Opens the issuer to the console's public client, which is sent back to `redirectUri`. */
  async serve(redirectUri: string): Promise<void> {
    const provider = await quietly(async () => {
      // Loaded here, where its start-up warnings are filtered (it warns on Node 20 as it loads).
      const { default: Provider, errors } = await import('oidc-provider');
      return new Provider(this.url, providerConfiguration(redirectUri, errors));
    });
    provider.on('server_error', (_ctx, error) => this.serverErrors.push(String((error as Error)?.stack ?? error)));
    this.handler = provider.callback();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (this.handler) return this.handler(req, res);
    res.statusCode = 503;
    res.end();
  }
}

function providerConfiguration(redirectUri: string, errors: typeof ProviderErrors) {
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const consoleOrigin = new URL(redirectUri).origin;
  return {
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...key, kid: 'test-issuer-1', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], profile: ['name'] },
    findAccount: (_ctx: unknown, accountId: string) => ({ accountId, claims: () => ({ sub: accountId, name: accountId }) }),
    // The console's origin may call discovery and the token endpoint from the browser.
    clientBasedCORS: (_ctx: unknown, origin: string) => origin === consoleOrigin,
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf ?? PLATFORM_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== PLATFORM_RESOURCE) throw new errors.InvalidTarget();
          return { scope: 'platform', audience: PLATFORM_AUDIENCE, accessTokenFormat: 'jwt', accessTokenTTL: 600, jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
    extraTokenClaims: (_ctx: unknown, token: { kind: string; accountId?: string }) =>
      token.kind === 'AccessToken' && token.accountId !== NO_TENANT_ACCOUNT ? { tenant_id: 'default' } : undefined,
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
  };
}

/**
 * oidc-provider warns, rightly, that its development login pages are not for production, and that
 * it wants Node 22 (the repository's runtime is 20; what this spec uses works there).
 */
async function quietly<T>(create: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!(typeof args[0] === 'string' && args[0].includes(OIDC_PROVIDER_WARNING))) warn(...args);
  };
  try {
    return await create();
  } finally {
    console.warn = warn;
  }
}
