/**
 * What every subscription signing secret starts with (the Standard Webhooks convention), so a leaked
 * one is recognizable in a scan.
 */
export const SIGNING_SECRET_PREFIX = 'whsec_';

// 32 random bytes in padded base64 are 43 characters and one '='.
const SIGNING_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

/** Whether `value` has the shape of a signing secret: `whsec_` and the base64 of 32 bytes. */
export function isSigningSecret(value: string): boolean {
  return SIGNING_SECRET.test(value) && Buffer.from(value.slice(SIGNING_SECRET_PREFIX.length), 'base64').length === 32;
}

/**
 * The Standard Webhooks HMAC key of a secret: the bytes its base64 part decodes to (the prefix is
 * not part of the key, unlike in the `X-Webhook-Signature` scheme, which keys on the whole string).
 */
export function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SIGNING_SECRET_PREFIX) ? secret.slice(SIGNING_SECRET_PREFIX.length) : secret, 'base64');
}
