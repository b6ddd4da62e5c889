import type { ConfigKeyDeclaration } from './config-key-spec';
import { reportConfigKey, type ConfigReportEntry } from './config-report';

/**
 * Checked when nothing was declared (specs/operations.md §2, Configuration diagnostics, rule 4):
 * the JWT settings every service needs to verify callers.
 */
const FALLBACK_KEYS: readonly ConfigKeyDeclaration[] = [
  { key: 'JWT_SECRET', description: 'HS256 signing secret', sensitive: true },
  { key: 'JWT_ISSUER', description: 'Expected token issuer', sensitive: false },
  { key: 'JWT_AUDIENCE', description: 'Expected token audience', sensitive: false },
].map((k) => ({ ...k, owner: 'fallback', group: 'jwt', type: 'string', required: false }));

/**
 * Every configuration key declared in this process, in declaration order. `declareConfig()`
 * registers into `ConfigRegistry.global`; the standalone app runs all services in one process,
 * so the global registry then holds the whole platform's keys, shared ones (DATABASE_URL, ...)
 * listed once.
 */
export class ConfigRegistry {
  static readonly global = new ConfigRegistry();

  private readonly declarations: ConfigKeyDeclaration[] = [];

  register(declaration: { readonly keys: readonly ConfigKeyDeclaration[] }): void {
    this.declarations.push(...declaration.keys);
  }

  /** Each key once: the first declaration of a duplicate key wins (spec rule 1). */
  list(): ConfigKeyDeclaration[] {
    const seen = new Set<string>();
    return this.declarations.filter((d) => !seen.has(d.key) && seen.add(d.key));
  }

  report(env: Record<string, string | undefined> = process.env): ConfigReportEntry[] {
    const keys = this.list();
    return (keys.length > 0 ? keys : FALLBACK_KEYS).map((key) => reportConfigKey(key, env));
  }
}
