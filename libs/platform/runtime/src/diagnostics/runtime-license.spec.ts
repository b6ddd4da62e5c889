import { generateKeyPairSync, sign } from 'node:crypto';
import { Ed25519RuntimeLicenseProvider, type LicenseClaims } from './runtime-license';

const vendor = generateKeyPairSync('ed25519');
const publicPem = vendor.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const now = new Date('2027-06-01T00:00:00Z');
const day = 86_400_000;

function license(claims: Partial<LicenseClaims> & { expiresAt: string }, key = vendor.privateKey): string {
  const body = Buffer.from(JSON.stringify({ licensee: 'Acme LLP', issuedAt: '2027-01-01T00:00:00Z', ...claims })).toString('base64url');
  return `${body}.${sign(null, Buffer.from(body), key).toString('base64url')}`;
}
const inDays = (days: number) => new Date(now.getTime() + days * day).toISOString();
const stateOf = (env: Record<string, string>) => new Ed25519RuntimeLicenseProvider(env).status(now);

describe('Ed25519RuntimeLicenseProvider: the six states', () => {
  it('Unlicensed without a key', () => {
    expect(stateOf({})).toEqual({ state: 'Unlicensed', reason: 'LICENSE_KEY unset' });
  });

  it('Valid well before expiry', () => {
    expect(stateOf({ LICENSE_KEY: license({ expiresAt: inDays(90) }), LICENSE_PUBLIC_KEY: publicPem })).toMatchObject({ state: 'Valid', licensee: 'Acme LLP' });
  });

  it('ExpiringSoon inside LICENSE_EXPIRY_WARNING_DAYS', () => {
    const key = license({ expiresAt: inDays(10) });
    expect(stateOf({ LICENSE_KEY: key, LICENSE_PUBLIC_KEY: publicPem })).toMatchObject({ state: 'ExpiringSoon' });
    expect(stateOf({ LICENSE_KEY: key, LICENSE_PUBLIC_KEY: publicPem, LICENSE_EXPIRY_WARNING_DAYS: '5' })).toMatchObject({ state: 'Valid' });
  });

  it('GracePeriod past expiry within the signed graceDays, Expired after', () => {
    expect(stateOf({ LICENSE_KEY: license({ expiresAt: inDays(-3), graceDays: 7 }), LICENSE_PUBLIC_KEY: publicPem })).toMatchObject({ state: 'GracePeriod' });
    expect(stateOf({ LICENSE_KEY: license({ expiresAt: inDays(-8), graceDays: 7 }), LICENSE_PUBLIC_KEY: publicPem })).toMatchObject({ state: 'Expired' });
    expect(stateOf({ LICENSE_KEY: license({ expiresAt: inDays(-1) }), LICENSE_PUBLIC_KEY: publicPem })).toMatchObject({ state: 'Expired' });
  });

  it('the public key may also be given as base64 DER', () => {
    const der = vendor.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect(stateOf({ LICENSE_KEY: license({ expiresAt: inDays(90) }), LICENSE_PUBLIC_KEY: der })).toMatchObject({ state: 'Valid' });
  });

  it.each([
    [
      'signed by another key',
      () => ({ LICENSE_KEY: license({ expiresAt: inDays(90) }, generateKeyPairSync('ed25519').privateKey), LICENSE_PUBLIC_KEY: publicPem }),
      /signature/,
    ],
    ['without a public key', () => ({ LICENSE_KEY: license({ expiresAt: inDays(90) }) }), /LICENSE_PUBLIC_KEY unset/],
    [
      'with a public key that is not Ed25519',
      () => ({ LICENSE_KEY: license({ expiresAt: inDays(90) }), LICENSE_PUBLIC_KEY: 'bm90IGEga2V5' }),
      /not an Ed25519/,
    ],
    ['shorter than its minimum length', () => ({ LICENSE_KEY: 'short', LICENSE_PUBLIC_KEY: publicPem }), /LICENSE_KEY/],
    ['issued in the future', () => ({ LICENSE_KEY: license({ issuedAt: inDays(1), expiresAt: inDays(90) }), LICENSE_PUBLIC_KEY: publicPem }), /future/],
    [
      'tampered after signing',
      () => ({ LICENSE_KEY: `${license({ expiresAt: inDays(-1) }).split('.')[0]}x.${'A'.repeat(86)}`, LICENSE_PUBLIC_KEY: publicPem }),
      /signature/,
    ],
  ])('Invalid when %s, and the reason never quotes the key', (_what, env, reason) => {
    const settings = env();
    const status = stateOf(settings);
    expect(status.state).toBe('Invalid');
    expect(status.reason).toMatch(reason);
    expect(status.reason).not.toContain(settings.LICENSE_KEY);
  });
});
