import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { RuntimeLicenseState } from '@lp/contracts';
import { ConfigValidationError, declareConfig } from '@lp/platform/config';

/**
 * The runtime license: an Ed25519-signed token `base64url(JSON claims).base64url(signature)` issued
 * by the vendor, verified offline with the vendor's public key. Neither key is required: a platform
 * without a license runs, and reports `Unlicensed`.
 */
export const runtimeLicenseConfig = declareConfig('runtime-license', {
  LICENSE_KEY: {
    type: 'string',
    group: 'licensing',
    description: 'the signed license token (claims.signature, base64url); unset = Unlicensed',
    sensitive: true,
    minLength: 64,
  },
  LICENSE_PUBLIC_KEY: {
    type: 'string',
    group: 'licensing',
    description: "the vendor's Ed25519 public key verifying LICENSE_KEY: PEM (SPKI), or its DER as base64",
  },
  LICENSE_EXPIRY_WARNING_DAYS: {
    type: 'int',
    group: 'licensing',
    description: 'days before expiry from which the license reads ExpiringSoon',
    default: 30,
    min: 0,
    max: 365,
  },
});

/** What the vendor signs. `graceDays`: how long after `expiresAt` the license still reads GracePeriod. */
export const licenseClaimsSchema = z.strictObject({
  licensee: z.string().min(1).max(200),
  issuedAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
  graceDays: z.number().int().min(0).max(365).default(0),
});
export type LicenseClaims = z.infer<typeof licenseClaimsSchema>;

export interface RuntimeLicenseStatus {
  state: RuntimeLicenseState;
  /** One line for the adapter report: why this state (never the key itself). */
  reason: string;
  licensee?: string;
  expiresAt?: string;
}

/**
 * The runtime license provider port. Its state, out of six:
 * - `Unlicensed`: no LICENSE_KEY configured;
 * - `Invalid`: a key that does not verify (malformed, bad signature, no or bad public key, issued in the future);
 * - `Valid`: verified and more than LICENSE_EXPIRY_WARNING_DAYS from expiry;
 * - `ExpiringSoon`: verified, within the warning window before expiry;
 * - `GracePeriod`: past expiry, within the license's `graceDays`;
 * - `Expired`: past expiry and grace.
 */
export abstract class RuntimeLicenseProvider {
  abstract status(now?: Date): RuntimeLicenseStatus;
}

const DAY_MS = 86_400_000;

/** Reads the license from the service's environment and verifies it with node:crypto on each call (cheap, and the clock moves). */
export class Ed25519RuntimeLicenseProvider extends RuntimeLicenseProvider {
  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {
    super();
  }

  status(now: Date = new Date()): RuntimeLicenseStatus {
    let config;
    try {
      config = runtimeLicenseConfig.load({ ...this.env });
    } catch (error) {
      // A bad license must not stop the platform: it reads Invalid, with what is wrong.
      if (error instanceof ConfigValidationError) return { state: 'Invalid', reason: error.problems.map((p) => `${p.key} ${p.problem}`).join('; ') };
      throw error;
    }
    if (!config.LICENSE_KEY) return { state: 'Unlicensed', reason: 'LICENSE_KEY unset' };
    if (!config.LICENSE_PUBLIC_KEY) return { state: 'Invalid', reason: 'LICENSE_KEY set but LICENSE_PUBLIC_KEY unset: the license cannot be verified' };
    const publicKey = parsePublicKey(config.LICENSE_PUBLIC_KEY);
    if (!publicKey) return { state: 'Invalid', reason: 'LICENSE_PUBLIC_KEY is not an Ed25519 public key' };
    const claims = verifyLicense(config.LICENSE_KEY, publicKey);
    if (typeof claims === 'string') return { state: 'Invalid', reason: claims };
    return stateOf(claims, now, config.LICENSE_EXPIRY_WARNING_DAYS);
  }
}

function stateOf(claims: LicenseClaims, now: Date, warningDays: number): RuntimeLicenseStatus {
  const facts = { licensee: claims.licensee, expiresAt: claims.expiresAt };
  const expires = Date.parse(claims.expiresAt);
  const t = now.getTime();
  if (Date.parse(claims.issuedAt) > t) return { state: 'Invalid', reason: `issued in the future (${claims.issuedAt})`, ...facts };
  if (t < expires - warningDays * DAY_MS) return { state: 'Valid', reason: `licensed to ${claims.licensee} until ${claims.expiresAt}`, ...facts };
  if (t < expires) return { state: 'ExpiringSoon', reason: `expires ${claims.expiresAt} (within ${warningDays} days)`, ...facts };
  if (t < expires + claims.graceDays * DAY_MS)
    return { state: 'GracePeriod', reason: `expired ${claims.expiresAt}; grace of ${claims.graceDays} days`, ...facts };
  return { state: 'Expired', reason: `expired ${claims.expiresAt}`, ...facts };
}

function parsePublicKey(text: string): KeyObject | undefined {
  try {
    const key = text.includes('BEGIN') ? createPublicKey(text) : createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ed25519' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The verified claims, or why the token is refused. */
export function verifyLicense(token: string, publicKey: KeyObject): LicenseClaims | string {
  const [body, signature, extra] = token.trim().split('.');
  if (!body || !signature || extra !== undefined) return 'LICENSE_KEY is not claims.signature';
  if (!verify(null, Buffer.from(body, 'utf8'), publicKey, Buffer.from(signature, 'base64url'))) return 'signature does not verify against LICENSE_PUBLIC_KEY';
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return 'signed claims are not JSON';
  }
  const parsed = licenseClaimsSchema.safeParse(json);
  return parsed.success ? parsed.data : `signed claims are not a license: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`;
}
