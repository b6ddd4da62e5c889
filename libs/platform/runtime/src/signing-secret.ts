import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SIGNING_SECRET_FILE = 'jwt-signing-secret';

export function signingSecretPath(dataDir: string): string {
  return join(dataDir, SIGNING_SECRET_FILE);
}

/** Reads the embedded profile's signing secret, or undefined before the first start. */
export function readSigningSecret(dataDir: string): string | undefined {
  const path = signingSecretPath(dataDir);
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : undefined;
}

/**
 * The embedded profile's HS256 secret: generated on first start (never a constant in code), kept
 * under DATA_DIR readable by the owner only, and reused on every later start so tokens survive
 * restarts. `wx` makes two processes racing on a first start agree on one secret.
 */
export function ensureSigningSecret(dataDir: string): string {
  const existing = readSigningSecret(dataDir);
  if (existing) return existing;
  const path = signingSecretPath(dataDir);
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(path, 0o600);
  return readFileSync(path, 'utf8').trim();
}
