// A real OIDC issuer for oidc-provider.e2e.spec.ts. It runs in its own Node process because
// oidc-provider is ESM-only and Jest loads specs as CommonJS.
//
// Usage: node oidc-test-provider.mjs '<json>' where json = { audience, scope, clients: [{ clientId, clientSecret, tenantId? }] }
// Prints one line when ready: {"issuer": "http://127.0.0.1:PORT", "kid": "..."}. Exits when stdin
// closes, so it cannot outlive the test process that spawned it.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { once } from 'node:events';
import Provider, { errors } from 'oidc-provider';

const { audience, scope, clients } = JSON.parse(process.argv[2]);
const tenantOf = new Map(clients.map((client) => [client.clientId, client.tenantId]));

// A fresh RSA key per run, so no key material lives in the repository.
const kid = `test-${randomBytes(4).toString('hex')}`;
const signingKey = {
  ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid,
  alg: 'RS256',
  use: 'sig',
};

// Listen first: the issuer URL must name the port, and the port is only known once bound.
const server = createServer();
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: clients.map((client) => ({
    client_id: client.clientId,
    client_secret: client.clientSecret,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
  })),
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => audience,
      getResourceServerInfo: (_ctx, resource) => {
        if (resource !== audience) throw new errors.InvalidTarget();
        return { scope, audience, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
      },
    },
  },
  // The platform's tenant claim; a client configured without a tenant gets a token without one.
  extraTokenClaims: (_ctx, token) => {
    const tenantId = tenantOf.get(token.clientId);
    return tenantId ? { tenant_id: tenantId } : {};
  },
});

server.on('request', provider.callback());
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.stdout.write(`${JSON.stringify({ issuer, kid })}\n`);
