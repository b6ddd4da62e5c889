import { resolve } from 'node:path';
import { ensureGeneratedSecret } from '@lp/platform/runtime/signing';
import { parseSecretKeyRing, SECRET_KEY_BYTES, SecretKeyRing, SecretKeyRingError } from './secret-key-ring';

/** The key the embedded profile generates under DATA_DIR when WEBHOOK_SECRET_KEY is unset. */
export const GENERATED_SECRET_KEY_FILE = 'webhook-secret-key';

export interface SecretKeySettings {
  WEBHOOK_SECRET_KEY?: string;
  WEBHOOK_SECRET_KEYS_PREVIOUS?: string;
  NODE_ENV: string;
  DATA_DIR: string;
}

/**
 * The key ring of the configured keys. Without WEBHOOK_SECRET_KEY, production refuses to start (a
 * generated key on one replica's disk would be unknown to the others and lost with the volume);
 * elsewhere the key is generated once under DATA_DIR, as the JWT signing secret is, and is `v1`.
 */
export function loadSecretKeyRing(settings: SecretKeySettings): SecretKeyRing {
  const configured = settings.WEBHOOK_SECRET_KEY?.trim();
  if (configured) return parseSecretKeyRing(configured, settings.WEBHOOK_SECRET_KEYS_PREVIOUS);
  if (settings.NODE_ENV === 'production') {
    throw new SecretKeyRingError([
      'WEBHOOK_SECRET_KEY is required with NODE_ENV=production (32 random bytes in base64, e.g. `openssl rand -base64 32`); it encrypts subscription signing secrets at rest',
    ]);
  }
  const generated = ensureGeneratedSecret(resolve(settings.DATA_DIR), GENERATED_SECRET_KEY_FILE, SECRET_KEY_BYTES);
  return parseSecretKeyRing(`v1:${generated}`, settings.WEBHOOK_SECRET_KEYS_PREVIOUS);
}
