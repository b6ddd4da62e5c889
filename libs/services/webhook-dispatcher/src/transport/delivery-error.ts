import type { DeliveryErrorCode } from './webhook-transport';

/** A refusal of the connector, carried through undici to the attempt unchanged. */
export class DeliveryConnectError extends Error {
  constructor(
    readonly code: Extract<DeliveryErrorCode, 'Webhook.AddressRefused' | 'Webhook.DnsFailed'>,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

const CONNECT_FAILED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT', 'ENETDOWN', 'EHOSTDOWN']);
const TIMEOUT = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const DNS_FAILED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
// Node's TLS failures: its own ERR_TLS_*/ERR_SSL_* codes and OpenSSL's verification codes.
const TLS_FAILED = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY|DECRYPT)|HOSTNAME_MISMATCH)/;

/** The delivery log's `errorCode` and a short message for an attempt that got no HTTP answer. */
export function deliveryErrorOf(error: unknown, timedOut: boolean): { code: DeliveryErrorCode; message: string } {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (timedOut || (code && TIMEOUT.has(code))) return { code: 'Webhook.Timeout', message: timedOut ? 'the attempt ran out of time' : message };
  if (error instanceof DeliveryConnectError) return { code: error.code, message };
  if (code && CONNECT_FAILED.has(code)) return { code: 'Webhook.ConnectFailed', message };
  if (code && DNS_FAILED.has(code)) return { code: 'Webhook.DnsFailed', message };
  if (code && TLS_FAILED.test(code)) return { code: 'Webhook.TlsFailed', message };
  return { code: 'Webhook.RequestFailed', message };
}

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
