import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ConfigValidationError } from '@lp/platform/config';
import { consoleApp, consoleClientConfig, consoleHostConfig } from './console-host';

const identity = {
  JWT_JWKS_URI: 'https://login.example.com/realms/legal/jwks',
  JWT_ISSUER: 'https://login.example.com/realms/legal',
  JWT_AUDIENCE: 'legal-platform-api',
};

function settings(env: Record<string, string> = {}) {
  return consoleHostConfig.load({ CONSOLE_DIR: 'dist/console', ...env });
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('consoleClientConfig (/console/config.json)', () => {
  it('offers no single sign-on without a console client, whatever verifies the tokens', () => {
    expect(consoleClientConfig(settings(), identity)).toEqual({});
    expect(consoleClientConfig(settings(), { JWT_ISSUER: 'legal-platform', JWT_AUDIENCE: 'legal-platform-api' })).toEqual({});
  });

  it('names the issuer, the public client, its scopes and the audience when the platform trusts the issuer', () => {
    expect(consoleClientConfig(settings({ CONSOLE_OIDC_CLIENT_ID: 'console' }), identity)).toEqual({
      oidc: { issuer: 'https://login.example.com/realms/legal', clientId: 'console', scope: 'openid profile', audience: 'legal-platform-api' },
    });
    const custom = consoleClientConfig(settings({ CONSOLE_OIDC_CLIENT_ID: 'admin-console', CONSOLE_OIDC_SCOPE: 'openid legal-api' }), identity);
    expect(custom.oidc).toMatchObject({ clientId: 'admin-console', scope: 'openid legal-api' });
  });

  it('accepts an http issuer on the loopback only (development)', () => {
    for (const issuer of ['http://127.0.0.1:4000', 'http://localhost:8080/realms/dev', 'http://[::1]:9000']) {
      expect(consoleClientConfig(settings({ CONSOLE_OIDC_CLIENT_ID: 'console' }), { ...identity, JWT_ISSUER: issuer }).oidc?.issuer).toBe(issuer);
    }
  });

  it('fails the boot when the client is set but the platform cannot accept the issuer tokens', () => {
    const client = settings({ CONSOLE_OIDC_CLIENT_ID: 'console' });
    expect(refusal(() => consoleClientConfig(client, { JWT_ISSUER: identity.JWT_ISSUER, JWT_AUDIENCE: 'legal-platform-api' }))).toContain(
      'CONSOLE_OIDC_CLIENT_ID: single sign-on needs JWT_JWKS_URI',
    );
    expect(refusal(() => consoleClientConfig(client, { ...identity, JWT_ISSUER: 'legal-platform' }))).toContain(
      'JWT_ISSUER: with CONSOLE_OIDC_CLIENT_ID set, the issuer "legal-platform" must be the issuer\'s URL',
    );
    expect(refusal(() => consoleClientConfig(client, { ...identity, JWT_ISSUER: 'http://login.example.com' }))).toContain('must be an https URL');
    expect(refusal(() => consoleClientConfig(client, { ...identity, JWT_ISSUER: 'https://login.example.com/?tenant=a' }))).toContain('no query or fragment');
    expect(refusal(() => consoleClientConfig(client, { ...identity, JWT_ISSUER: 'ftp://login.example.com' }))).toContain('must be an https URL');
  });
});

describe('consoleApp security headers and config', () => {
  let directory: string;

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'lp-console-host-'));
    writeFileSync(join(directory, 'index.html'), '<!doctype html><div id="root"></div>');
  });

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('lets the SPA reach the issuer origin (discovery, token endpoint) and nothing else beyond its own', async () => {
    const client = consoleClientConfig(settings({ CONSOLE_OIDC_CLIENT_ID: 'console' }), identity);
    const app = consoleApp({ directory, client });
    const response = await request(app).get('/console/config.json').expect(200);
    expect(response.body).toEqual(client);
    expect(response.headers['cache-control']).toBe('no-store');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self' https://login.example.com;");
    expect(csp).toContain("form-action 'self' https://login.example.com");
    expect(csp).toContain("script-src 'self';");

    const callback = await request(app).get('/console/oidc/callback?code=abc&state=xyz').expect(200);
    expect(callback.text).toContain('<div id="root">');
    expect(callback.headers['referrer-policy']).toBe('no-referrer');
  });

  it('keeps the SPA on its own origin without single sign-on', async () => {
    const response = await request(consoleApp({ directory, client: {} }))
      .get('/console/config.json')
      .expect(200);
    expect(response.body).toEqual({});
    expect(String(response.headers['content-security-policy'])).toContain("connect-src 'self'; ");
    expect(String(response.headers['content-security-policy'])).toContain("form-action 'self'");
  });
});
