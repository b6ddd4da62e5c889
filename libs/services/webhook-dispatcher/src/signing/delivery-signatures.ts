import { createHmac } from 'node:crypto';
import { standardWebhooksKey } from './signing-secret';

/**
 * `X-Webhook-Signature` for one secret: `sha256=` and the lowercase hex HMAC-SHA256 of
 * `{timestamp}.{body}`, keyed with the secret string's UTF-8 bytes exactly as the subscriber was
 * shown it (`whsec_…` included), so a subscriber needs no decoding step to verify.
 */
export function plainSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * One `webhook-signature` entry (Standard Webhooks v1): `v1,` and the base64 HMAC-SHA256 of
 * `{id}.{unixSeconds}.{body}`, keyed with the decoded bytes of the secret.
 */
export function standardWebhooksSignature(secret: string, id: string, unixSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', standardWebhooksKey(secret)).update(`${id}.${unixSeconds}.${body}`).digest('base64')}`;
}
