import type { INestApplication } from '@nestjs/common';
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { sign } from 'jsonwebtoken';
import request from 'supertest';
import { AuthenticationFailure, AuthModule, JwtVerificationOptions } from '../src';
import { startProbeApp } from './probe-app';

const audience = 'https://api.lp.test';
const reporting = { clientId: 'reporting', clientSecret: 'reporting-secret-0123456789', tenantId: 'acme' };
const tenantless = { clientId: 'tenantless', clientSecret: 'tenantless-secret-0123456789' };

const startApp = (verification: JwtVerificationOptions): Promise<INestApplication> => startProbeApp(AuthModule.forRoot(verification));

interface RunningIssuer {
  child: ChildProcessWithoutNullStreams;
  issuer: string;
  kid: string;
}

/** Starts test/oidc-test-provider.mjs and resolves with the issuer URL it prints once listening. */
function startIssuer(): Promise<RunningIssuer> {
  const config = { audience, scope: 'a b', clients: [reporting, tenantless] };
  const child = spawn(process.execPath, [join(__dirname, 'oidc-test-provider.mjs'), JSON.stringify(config)], { stdio: 'pipe' });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => fail(new Error('the OIDC provider did not start within 15s')), 15_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${error.message}\n${stderr}`));
    };
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => fail(new Error(`the OIDC provider exited early (code ${code})`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const { issuer, kid } = JSON.parse(stdout.slice(0, newline)) as { issuer: string; kid: string };
      resolve({ child, issuer, kid });
    });
  });
}

async function stopIssuer(running: RunningIssuer | undefined): Promise<void> {
  if (!running || running.child.exitCode !== null) return;
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  running.child.kill();
  await exited;
}

/** Client-credentials grant (RFC 6749 §4.4) against the issuer's token endpoint. */
async function clientCredentialsToken(tokenEndpoint: string, client: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await fetch(tokenEndpoint, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'a b' }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!res.ok || !body.access_token) throw new Error(`token endpoint answered ${res.status}: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A port nothing listens on: bind an ephemeral one, then release it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('bearer authentication against a real OIDC issuer (RS256 via JWKS)', () => {
  let running: RunningIssuer | undefined;
  let app: INestApplication;
  let tokenEndpoint: string;
  let issuer: string;

  beforeAll(async () => {
    running = await startIssuer();
    // Endpoints come from discovery, as a deployment would configure them.
    const discovery = (await (await fetch(`${running.issuer}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      jwks_uri: string;
      token_endpoint: string;
    };
    issuer = discovery.issuer;
    tokenEndpoint = discovery.token_endpoint;
    app = await startApp({ jwksUri: discovery.jwks_uri, issuer, audience });
  });

  afterAll(async () => {
    await app?.close();
    await stopIssuer(running);
  });

  it('accepts a client-credentials token verified through the issuer JWKS as an application caller', async () => {
    const token = await clientCredentialsToken(tokenEndpoint, reporting);
    const res = await request(app.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(200);
    expect(res.body).toMatchObject({
      kind: 'application',
      subject: 'reporting',
      clientId: 'reporting',
      tenantId: 'acme',
      scopes: ['a', 'b'],
    });
    expect(res.body.claimsDigest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a token from the issuer that names no tenant', async () => {
    const token = await clientCredentialsToken(tokenEndpoint, tenantless);
    const res = await request(app.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(401);
    expect(res.body).toMatchObject({ code: 'Authentication.Required', detail: AuthenticationFailure.noTenant });
  });

  describe('tokens the issuer did not sign', () => {
    const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const claims = (): object => ({ sub: 'reporting', client_id: 'reporting', tenant_id: 'acme', scope: 'a b', iss: issuer, aud: audience });

    it('refuses a token signed by another key under the issuer’s kid (bad signature)', async () => {
      const token = sign(claims(), foreignKey, { algorithm: 'RS256', keyid: running!.kid, expiresIn: 60 });
      const res = await request(app.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'Authentication.Required', detail: AuthenticationFailure.badSignature });
    });

    it('refuses a token signed by another key under a kid the issuer does not publish', async () => {
      const token = sign(claims(), foreignKey, { algorithm: 'RS256', keyid: 'not-published', expiresIn: 60 });
      const res = await request(app.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(401);
      expect(res.body).toMatchObject({ code: 'Authentication.Required', detail: AuthenticationFailure.unknownKey });
    });

    it('refuses an HS256 token where issuer keys are configured', async () => {
      const token = sign(claims(), 'a-guessable-shared-secret-0123456789', { algorithm: 'HS256', expiresIn: 60 });
      const res = await request(app.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(401);
      expect(res.body).toMatchObject({ code: 'Authentication.Required', detail: AuthenticationFailure.unsupportedAlgorithm });
    });
  });

  it('fails closed with 503 ServiceUnavailable when the issuer keys cannot be fetched', async () => {
    const unreachable = await startApp({ jwksUri: `http://127.0.0.1:${await closedPort()}/jwks`, issuer, audience });
    try {
      const token = await clientCredentialsToken(tokenEndpoint, reporting);
      const res = await request(unreachable.getHttpServer()).get('/whoami').set('Authorization', `Bearer ${token}`).expect(503);
      expect(res.body).toMatchObject({ status: 503, code: 'ServiceUnavailable' });
    } finally {
      await unreachable.close();
    }
  });
});
