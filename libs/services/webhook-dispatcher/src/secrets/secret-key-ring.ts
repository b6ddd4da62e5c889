/** The key that encrypts new secrets, and every key still able to decrypt, by version. */
export interface SecretKeyRing {
  readonly current: { readonly version: number; readonly key: Buffer };
  readonly byVersion: ReadonlyMap<number, Buffer>;
}

export const SECRET_KEY_BYTES = 32;
const VERSIONED = /^v(\d{1,9}):(.*)$/s;
const BASE64 = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/;

/** Why the key ring settings are refused, every problem at once (the service refuses to start with them). */
export class SecretKeyRingError extends Error {
  constructor(readonly problems: string[]) {
    super(`webhook secret keys are not usable: ${problems.join('; ')}`);
    this.name = 'SecretKeyRingError';
  }
}

function parseKey(setting: string, text: string, requireVersion: boolean, problems: string[]): { version: number; key: Buffer } | undefined {
  const trimmed = text.trim();
  const match = VERSIONED.exec(trimmed);
  if (!match && requireVersion) {
    problems.push(`${setting}: each key is \`v{N}:{base64}\` (the version it was used as), got an entry without \`v{N}:\``);
    return undefined;
  }
  const version = match ? Number(match[1]) : 1;
  const encoded = match ? (match[2] ?? '') : trimmed;
  if (version < 1) {
    problems.push(`${setting}: key versions start at v1, got v${version}`);
    return undefined;
  }
  const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : undefined;
  if (!key || key.length !== SECRET_KEY_BYTES) {
    problems.push(
      `${setting} (v${version}) must be ${SECRET_KEY_BYTES} bytes in base64 (e.g. \`openssl rand -base64 32\`), got ${key ? `${key.length} bytes` : 'text that is not base64'}`,
    );
    return undefined;
  }
  return { version, key };
}

/**
 * Parses `WEBHOOK_SECRET_KEY` (`[v{N}:]{base64 of 32 bytes}`, version 1 without a prefix) and
 * `WEBHOOK_SECRET_KEYS_PREVIOUS` (`v{N}:{base64},...`). A version named twice is refused: the
 * stored `secret_key_version` must name exactly one key.
 */
export function parseSecretKeyRing(current: string, previous: string | undefined): SecretKeyRing {
  const problems: string[] = [];
  const parsedCurrent = parseKey('WEBHOOK_SECRET_KEY', current, false, problems);
  const byVersion = new Map<number, Buffer>();
  if (parsedCurrent) byVersion.set(parsedCurrent.version, parsedCurrent.key);
  const entries = (previous ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const parsed = parseKey('WEBHOOK_SECRET_KEYS_PREVIOUS', entry, true, problems);
    if (!parsed) continue;
    if (byVersion.has(parsed.version)) {
      problems.push(
        parsedCurrent?.version === parsed.version
          ? `WEBHOOK_SECRET_KEYS_PREVIOUS names v${parsed.version}, the version of WEBHOOK_SECRET_KEY: give the new key a new version`
          : `WEBHOOK_SECRET_KEYS_PREVIOUS names v${parsed.version} twice`,
      );
      continue;
    }
    byVersion.set(parsed.version, parsed.key);
  }
  if (problems.length > 0 || !parsedCurrent) throw new SecretKeyRingError(problems);
  return { current: parsedCurrent, byVersion };
}
