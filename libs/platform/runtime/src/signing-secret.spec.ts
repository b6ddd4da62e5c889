import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureGeneratedSecret, ensureSigningSecret, readSigningSecret, signingSecretPath } from './signing-secret';

const created: string[] = [];
/** A fresh directory under the temporary directory, removed after the file's tests. */
function temporaryDirectory(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

describe('embedded signing secret', () => {
  it('is generated on first start, private to the owner, and the same on every later start', () => {
    const dir = join(temporaryDirectory('lp-secret-'), 'data');
    expect(readSigningSecret(dir)).toBeUndefined();
    const first = ensureSigningSecret(dir);
    expect(first.length).toBeGreaterThanOrEqual(48);
    expect(statSync(signingSecretPath(dir)).mode & 0o777).toBe(0o600);
    expect(ensureSigningSecret(dir)).toBe(first);
    expect(readSigningSecret(dir)).toBe(first);
  });

  it('differs between data directories (never a constant)', () => {
    const a = ensureSigningSecret(temporaryDirectory('lp-secret-a-'));
    const b = ensureSigningSecret(temporaryDirectory('lp-secret-b-'));
    expect(a).not.toBe(b);
  });
});

describe('ensureGeneratedSecret (any generated secret of the embedded profile)', () => {
  it('keeps each file name apart, with the requested number of random bytes', () => {
    const dir = temporaryDirectory('lp-generated-');
    const key = ensureGeneratedSecret(dir, 'other-key', 32);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect(statSync(join(dir, 'other-key')).mode & 0o777).toBe(0o600);
    expect(ensureGeneratedSecret(dir, 'other-key', 32)).toBe(key);
    expect(ensureSigningSecret(dir)).not.toBe(key);
  });
});
