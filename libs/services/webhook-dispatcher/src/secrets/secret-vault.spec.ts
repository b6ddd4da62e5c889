import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebhookSubscriptionEntity } from '../store';
import { GENERATED_SECRET_KEY_FILE, loadSecretKeyRing } from './secret-key-source';
import { parseSecretKeyRing, SecretKeyRingError } from './secret-key-ring';
import { SecretVault } from './secret-vault';
import { generateSigningSecret, secretFingerprint } from './signing-secret';
import { VaultSubscriptionSecrets } from './vault-subscription-secrets';

const key = () => randomBytes(32).toString('base64');
const owner = { tenantId: 'acme', subscriptionId: '3f1c2b9e-8d7a-4c6b-9e5f-0a1b2c3d4e5f' };

/** The problems a key ring setting is refused with (none: accepted). */
function problemsOf(current: string, previous?: string): string[] {
  try {
    parseSecretKeyRing(current, previous);
    return [];
  } catch (error) {
    if (!(error instanceof SecretKeyRingError)) throw error;
    return error.problems;
  }
}

describe('SecretVault (AES-256-GCM, tenant and subscription bound)', () => {
  const vault = new SecretVault(parseSecretKeyRing(key(), undefined));

  it('round-trips a secret, never storing it in the clear, with a fresh IV each time', () => {
    const secret = generateSigningSecret();
    const sealed = vault.seal(secret, owner);
    expect(sealed.keyVersion).toBe(1);
    expect(sealed.ciphertext).not.toContain(secret.slice(6));
    expect(Buffer.from(sealed.ciphertext, 'base64').toString('latin1')).not.toContain(secret);
    expect(vault.open(sealed, owner)).toBe(secret);
    expect(vault.seal(secret, owner).ciphertext).not.toBe(sealed.ciphertext);
  });

  it('refuses a ciphertext moved to another subscription or another tenant', () => {
    const sealed = vault.seal(generateSigningSecret(), owner);
    expect(() => vault.open(sealed, { ...owner, subscriptionId: '00000000-0000-4000-8000-000000000000' })).toThrow(/does not decrypt/);
    expect(() => vault.open(sealed, { ...owner, tenantId: 'globex' })).toThrow(/does not decrypt/);
  });

  it('refuses an altered ciphertext', () => {
    const sealed = vault.seal(generateSigningSecret(), owner);
    const raw = Buffer.from(sealed.ciphertext, 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => vault.open({ ...sealed, ciphertext: raw.toString('base64') }, owner)).toThrow(/does not decrypt/);
  });

  it('still opens secrets sealed under an earlier key version after the master key rotates, sealing new ones under the new key', () => {
    const v1 = key();
    const before = new SecretVault(parseSecretKeyRing(v1, undefined));
    const secret = generateSigningSecret();
    const old = before.seal(secret, owner);

    const after = new SecretVault(parseSecretKeyRing(`v2:${key()}`, `v1:${v1}`));
    expect(after.open(old, owner)).toBe(secret);
    expect(after.seal(secret, owner).keyVersion).toBe(2);
    expect(after.currentKeyVersion).toBe(2);
    // Once v1 is dropped from the previous keys, its secrets no longer open, with a message naming it.
    const without = new SecretVault(parseSecretKeyRing(`v2:${key()}`, undefined));
    expect(() => without.open(old, owner)).toThrow(/key v1, which neither WEBHOOK_SECRET_KEY nor WEBHOOK_SECRET_KEYS_PREVIOUS holds/);
  });
});

describe('key ring settings, checked at boot', () => {
  it('accepts a bare key as v1 and a versioned one as its version', () => {
    expect(parseSecretKeyRing(key(), undefined).current.version).toBe(1);
    expect(parseSecretKeyRing(`v7:${key()}`, ` v3:${key()} , v1:${key()}`).byVersion.size).toBe(3);
  });

  it.each<[string, string, string | undefined, RegExp]>([
    ['a short key', randomBytes(16).toString('base64'), undefined, /WEBHOOK_SECRET_KEY \(v1\) must be 32 bytes in base64 .*got 16 bytes/],
    ['a long key', `v2:${randomBytes(48).toString('base64')}`, undefined, /WEBHOOK_SECRET_KEY \(v2\) must be 32 bytes .*got 48 bytes/],
    ['text that is not base64', 'not a key at all, clearly not base64!!', undefined, /must be 32 bytes in base64 .*got text that is not base64/],
    ['a version 0', `v0:${key()}`, undefined, /key versions start at v1/],
    ['a previous key without a version', `v2:${key()}`, key(), /each key is `v\{N\}:\{base64\}`/],
    ['a previous key of the current version', `v2:${key()}`, `v2:${key()}`, /names v2, the version of WEBHOOK_SECRET_KEY/],
    ['a previous version named twice', `v3:${key()}`, `v1:${key()},v1:${key()}`, /names v1 twice/],
    ['a short previous key', `v2:${key()}`, `v1:${randomBytes(31).toString('base64')}`, /WEBHOOK_SECRET_KEYS_PREVIOUS \(v1\) must be 32 bytes .*got 31 bytes/],
  ])('refuses %s with a message that says what is wrong', (_what, current, previous, message) => {
    const problems = problemsOf(current, previous);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('lists every problem at once', () => {
    expect(problemsOf('short', `v1:${key()},v1:${key()},nope`)).toHaveLength(3);
  });

  it('refuses to start in production without a key, and generates one under DATA_DIR elsewhere (owner-only, stable)', () => {
    const parent = mkdtempSync(join(tmpdir(), 'wh-key-'));
    try {
      const dataDir = join(parent, 'data');
      expect(() => loadSecretKeyRing({ NODE_ENV: 'production', DATA_DIR: dataDir })).toThrow(/WEBHOOK_SECRET_KEY is required with NODE_ENV=production/);
      expect(existsSync(join(dataDir, GENERATED_SECRET_KEY_FILE))).toBe(false);

      const first = loadSecretKeyRing({ NODE_ENV: 'development', DATA_DIR: dataDir });
      expect(first.current.version).toBe(1);
      expect(first.current.key).toHaveLength(32);
      expect(statSync(join(dataDir, GENERATED_SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
      expect(loadSecretKeyRing({ NODE_ENV: 'development', DATA_DIR: dataDir }).current.key.equals(first.current.key)).toBe(true);
      // An explicit key wins over the generated one.
      expect(loadSecretKeyRing({ NODE_ENV: 'production', DATA_DIR: dataDir, WEBHOOK_SECRET_KEY: `v4:${key()}` }).current.version).toBe(4);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('signing secrets and the SubscriptionSecrets port', () => {
  it('generates `whsec_` + base64 of 32 random bytes, fingerprinted by SHA-256 in hex', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
    expect(secretFingerprint('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('gives the current secret first, then the previous one only while its overlap lasts', () => {
    const vault = new SecretVault(parseSecretKeyRing(key(), undefined));
    const current = generateSigningSecret();
    const previous = generateSigningSecret();
    const sealedCurrent = vault.seal(current, owner);
    const sealedPrevious = vault.seal(previous, owner);
    const expiresAt = new Date('2026-06-01T12:00:00Z');
    const row = {
      id: owner.subscriptionId,
      tenantId: owner.tenantId,
      secretCiphertext: sealedCurrent.ciphertext,
      secretKeyVersion: sealedCurrent.keyVersion,
      previousSecretCiphertext: sealedPrevious.ciphertext,
      previousSecretKeyVersion: sealedPrevious.keyVersion,
      previousSecretExpiresAt: expiresAt,
    } as WebhookSubscriptionEntity;
    const secrets = new VaultSubscriptionSecrets(vault);
    expect(secrets.signingSecretsOf(row, new Date(expiresAt.getTime() - 1))).toEqual([current, previous]);
    expect(secrets.signingSecretsOf(row, expiresAt)).toEqual([current]);
    expect(
      secrets.signingSecretsOf({ ...row, previousSecretCiphertext: null, previousSecretKeyVersion: null, previousSecretExpiresAt: null }, new Date(0)),
    ).toEqual([current]);
  });
});
