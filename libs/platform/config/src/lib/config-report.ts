import type { ConfigKeyDeclaration } from './config-key-spec';
import { isBlankConfigValue } from './config-value-parser';

export type ConfigKeyStatus = 'missing' | 'too-short' | 'configured';

/** One row of the operations configuration report (specs/operations.md §2, Configuration diagnostics). */
export interface ConfigReportEntry {
  readonly key: string;
  readonly owner: string;
  readonly group: string;
  readonly description: string;
  readonly required: boolean;
  readonly sensitive: boolean;
  readonly status: ConfigKeyStatus;
  /** Where the effective value came from; absent when `missing`. */
  readonly source?: 'env' | 'default';
  /** Length of the effective value; absent when `missing`. */
  readonly length?: number;
  /** The effective value, only for non-sensitive keys (a URL's password is masked). */
  readonly value?: string;
}

/**
 * A value-shape check only, as the spec asks: blank, shorter than minLength, or present. No type
 * parsing and no connection attempt; `load()` is where values are validated. A key left blank
 * but defaulted reports its default, since that is what the service runs with.
 */
export function reportConfigKey(key: ConfigKeyDeclaration, env: Record<string, string | undefined>): ConfigReportEntry {
  const base = {
    key: key.key,
    owner: key.owner,
    group: key.group,
    description: key.description,
    required: key.required,
    sensitive: key.sensitive,
  };
  const raw = env[key.key];
  const fromEnv = !isBlankConfigValue(raw);
  const text = fromEnv ? raw : key.default === undefined ? '' : String(key.default);
  // A blank default (AMQP_PREFIX: '') is still a blank value.
  if (isBlankConfigValue(text)) return { ...base, status: 'missing' };

  const status: ConfigKeyStatus = key.minLength !== undefined && text.length < key.minLength ? 'too-short' : 'configured';
  return {
    ...base,
    status,
    source: fromEnv ? 'env' : 'default',
    length: text.length,
    ...(!key.sensitive && { value: key.type === 'url' ? maskUrlPassword(text) : text }),
  };
}

/** `postgres://app:s3cret@db/app` → `postgres://app:***@db/app`: a connection string is half a secret. */
export function maskUrlPassword(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:)[^/?#@]*@/i, '$1***@');
}
