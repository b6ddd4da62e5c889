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

/** A confidential client of the issuer for the client-credentials grant: a machine caller of tenant `default`. */
export interface MachineClient {
  clientId: string;
  clientSecret: string;
}

/** Who the issuer serves, once the platform's address is known. */
export interface IssuerClients {
  /** The console's public client (authorization code + PKCE) is sent back here. */
  consoleRedirectUri?: string;
  /** Clients for the client-credentials grant (RFC 6749 §4.4). */
  machineClients?: MachineClient[];
  /**
   * Resource indicators (RFC 8707) besides the platform's API, each an absolute URL whose tokens
   * have `aud` = the URL itself: what a client that follows MCP authorization asks for the MCP
   * endpoint's RFC 9728 `resource`.
   */
  resources?: string[];
}

/**
 * A real OpenID Provider (panva's oidc-provider) in the test process, on 127.0.0.1: discovery, the
 * authorization endpoint with its development login and consent pages (any login, any password),
 * the token endpoint (authorization code, client credentials) and the JWKS the platform verifies
 * tokens with. Its access tokens are JWTs for a resource (RFC 8707 resource indicators): `aud` the
 * platform's audience for its API (the default), or the indicator itself for one of `resources`;
 * `tenant_id` `default` (except for `NO_TENANT_ACCOUNT`), `sub` the login or, for client
 * credentials, the client id. Subject `admin` of tenant `default` is the platform's seeded
 * administrator. Shared by the console's single sign-on spec and the MCP gateway's audience spec.
 *
 * It listens first, so the platform can be started with its URL; `serve` opens it once the platform's
 * address, hence the console's redirect URI or the MCP endpoint's URL, is known.
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

  /** Opens the issuer to `clients`. */
  async serve(clients: IssuerClients): Promise<void> {
    const provider = await quietly(async () => {
      // Loaded here, where its start-up warnings are filtered (it warns on Node 20 as it loads).
      const { default: Provider, errors } = await import('oidc-provider');
      return new Provider(this.url, providerConfiguration(clients, errors));
    });
    provider.on('server_error', (_ctx, error) => this.serverErrors.push(String((error as Error)?.stack ?? error)));
    this.handler = provider.callback();
  }

  /** A client-credentials token (RFC 6749 §4.4) for `resource` (RFC 8707), as a machine client asks the token endpoint. */
  async clientCredentialsToken(client: MachineClient, resource: string): Promise<string> {
    const res = await fetch(`${this.url}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource }),
    });
    const body = (await res.json()) as { access_token?: string };
    if (!res.ok || !body.access_token) throw new Error(`the token endpoint answered ${res.status}: ${JSON.stringify(body)}`);
    return body.access_token;
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

function providerConfiguration(setup: IssuerClients, errors: typeof ProviderErrors) {
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const consoleOrigin = setup.consoleRedirectUri ? new URL(setup.consoleRedirectUri).origin : undefined;
  const resources = new Set(setup.resources ?? []);
  const jwtResource = (audience: string, scope: string) => ({
    scope,
    audience,
    accessTokenFormat: 'jwt',
    accessTokenTTL: 600,
    jwt: { sign: { alg: 'RS256' } },
  });
  return {
    clients: [
      ...(setup.consoleRedirectUri
        ? [
            {
              client_id: CONSOLE_CLIENT_ID,
              token_endpoint_auth_method: 'none',
              redirect_uris: [setup.consoleRedirectUri],
              grant_types: ['authorization_code'],
              response_types: ['code'],
            },
          ]
        : []),
      ...(setup.machineClients ?? []).map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        token_endpoint_auth_method: 'client_secret_basic',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        response_types: [],
      })),
    ],
    jwks: { keys: [{ ...key, kid: 'test-issuer-1', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], profile: ['name'] },
    findAccount: (_ctx: unknown, accountId: string) => ({ accountId, claims: () => ({ sub: accountId, name: accountId }) }),
    // The console's origin may call discovery and the token endpoint from the browser.
    clientBasedCORS: (_ctx: unknown, origin: string) => origin === consoleOrigin,
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf ?? PLATFORM_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator === PLATFORM_RESOURCE) return jwtResource(PLATFORM_AUDIENCE, 'platform');
          if (resources.has(indicator)) return jwtResource(indicator, 'mcp');
          throw new errors.InvalidTarget();
        },
      },
    },
    extraTokenClaims: (_ctx: unknown, token: { kind: string; accountId?: string }) =>
      (token.kind === 'AccessToken' && token.accountId !== NO_TENANT_ACCOUNT) || token.kind === 'ClientCredentials' ? { tenant_id: 'default' } : undefined,
    ttl: { AccessToken: 600, ClientCredentials: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
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
