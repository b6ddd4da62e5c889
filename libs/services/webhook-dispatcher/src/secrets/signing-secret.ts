import { createHash, randomBytes } from 'node:crypto';
import { SIGNING_SECRET_PREFIX } from '../signing/signing-secret';

/** A new subscription signing secret: `whsec_` and 32 random bytes in base64. */
export function generateSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The SHA-256 of the secret in hex: what lists show, so a receiver can tell which secret it holds. */
export function secretFingerprint(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
