import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SIGNING_SECRET_FILE = 'jwt-signing-secret';

export function signingSecretPath(dataDir: string): string {
  return join(dataDir, SIGNING_SECRET_FILE);
}

/** Reads a secret the embedded profile generated under DATA_DIR, or undefined before the first start. */
export function readGeneratedSecret(dataDir: string, fileName: string): string | undefined {
  const path = join(dataDir, fileName);
  return existsSync(path) ? readFileSync(path, 'utf8').trim() || undefined : undefined;
}

/**
 * A secret of the embedded profile (`bytes` random bytes, base64url): generated on first start
 * (never a constant in code), kept under DATA_DIR as `fileName` readable by the owner only, and
 * reused on every later start. `wx` makes two processes racing on a first start agree on one
 * secret: the loser finds the winner's file and reads it.
 */
export function ensureGeneratedSecret(dataDir: string, fileName: string, bytes: number): string {
  const existing = readGeneratedSecret(dataDir, fileName);
  if (existing) return existing;
  const path = join(dataDir, fileName);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, randomBytes(bytes).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(path, 0o600);
  return readFileSync(path, 'utf8').trim();
}

/** Reads the embedded profile's signing secret, or undefined before the first start. */
export function readSigningSecret(dataDir: string): string | undefined {
  return readGeneratedSecret(dataDir, SIGNING_SECRET_FILE);
}

/** The embedded profile's HS256 secret (48 random bytes), so tokens survive restarts. */
export function ensureSigningSecret(dataDir: string): string {
  return ensureGeneratedSecret(dataDir, SIGNING_SECRET_FILE, 48);
}
