import type { ConfigKeyDeclaration, ConfigKeySpec, ConfigScalar } from './config-key-spec';
import { ConfigRegistry } from './config-registry';
import { ConfigValidationError, type ConfigProblem } from './config-validation-error';
import { isBlankConfigValue, parseConfigValue } from './config-value-parser';
import type { ConfigValues } from './config-values';
import { isPlaceholderSecret } from './placeholder-secret';

/** Environment-variable style names, so one key means the same thing in every service. */
const KEY_NAME = /^[A-Z][A-Z0-9_]*$/;

/** A service's configuration: its declared keys, and the one way to turn an environment into values. */
export class ConfigDeclaration<T extends Record<string, ConfigKeySpec>> {
  /** Nest injection token of the loaded values (see `ConfigModule`, `InjectConfig`). */
  readonly token: symbol;

  constructor(
    readonly owner: string,
    readonly spec: T,
    readonly keys: readonly ConfigKeyDeclaration[],
  ) {
    this.token = Symbol(`config:${owner}`);
  }

  /** Reads every key; throws one `ConfigValidationError` listing every problem found. */
  load(env: Record<string, string | undefined> = process.env): ConfigValues<T> {
    const values: Record<string, ConfigScalar | undefined> = {};
    const problems: ConfigProblem[] = [];
    for (const key of this.keys) {
      const raw = env[key.key];
      if (isBlankConfigValue(raw)) {
        if (key.required) problems.push({ key: key.key, problem: 'is required but not set' });
        values[key.key] = key.default;
        continue;
      }
      if (key.sensitive && env.NODE_ENV === 'production' && isPlaceholderSecret(raw)) {
        problems.push({ key: key.key, problem: 'holds a placeholder ("change-me") from .env.example; production needs a real secret' });
        continue;
      }
      const parsed = parseConfigValue(key, raw);
      if (parsed.ok) values[key.key] = parsed.value;
      else problems.push({ key: key.key, problem: parsed.problem });
    }
    if (problems.length > 0) throw new ConfigValidationError(this.owner, problems);
    return Object.freeze(values) as ConfigValues<T>;
  }
}

/** The type of the values a declaration loads: `ConfigOf<typeof authzDecisionConfig>`. */
export type ConfigOf<D> = D extends ConfigDeclaration<infer T> ? ConfigValues<T> : never;

/**
 * Declares a service's configuration keys once, with the metadata the operations report reads,
 * and registers them process-wide (`ConfigRegistry.global`, or `options.registry`). A mistake in
 * the declaration itself (a default of the wrong type, `min` on a string...) throws at once: it
 * is a bug in code, not in the environment.
 */
export function declareConfig<const T extends Record<string, ConfigKeySpec>>(
  owner: string,
  spec: T,
  options: { registry?: ConfigRegistry } = {},
): ConfigDeclaration<T> {
  const keys = Object.entries(spec).map(([key, keySpec]) => normalizeKey(owner, key, keySpec));
  const declaration = new ConfigDeclaration(owner, spec, keys);
  (options.registry ?? ConfigRegistry.global).register(declaration);
  return declaration;
}

function normalizeKey(owner: string, key: string, spec: ConfigKeySpec): ConfigKeyDeclaration {
  const mistake = (what: string) => new TypeError(`declareConfig(${owner}): ${key} ${what}`);
  if (!KEY_NAME.test(key)) throw mistake('is not an environment variable name (A-Z, 0-9, _)');
  if ((spec.min !== undefined || spec.max !== undefined) && spec.type !== 'int') throw mistake('has min/max but is not an int');
  if (spec.oneOf !== undefined && spec.type !== 'string') throw mistake('has oneOf but is not a string');
  if (spec.minLength !== undefined && spec.type !== 'string' && spec.type !== 'url') {
    throw mistake('has minLength but is neither a string nor a url');
  }
  if (spec.required && spec.default !== undefined) throw mistake('is required and also has a default; pick one');

  const declaration: ConfigKeyDeclaration = {
    key,
    owner,
    type: spec.type,
    group: spec.group,
    description: spec.description,
    required: spec.required ?? false,
    sensitive: spec.sensitive ?? false,
    ...(spec.minLength !== undefined && { minLength: spec.minLength }),
    ...(spec.min !== undefined && { min: spec.min }),
    ...(spec.max !== undefined && { max: spec.max }),
    ...(spec.oneOf !== undefined && { oneOf: [...spec.oneOf] }),
  };
  if (spec.default === undefined) return declaration;

  // The default must pass the same rules as the environment would, so a bad default fails in
  // every environment instead of only where the variable happens to be unset.
  // A string default is accepted for any type ('3000' for an int), as the variable would be.
  const expected = spec.type === 'int' ? 'number' : spec.type === 'boolean' ? 'boolean' : 'string';
  if (typeof spec.default !== expected && typeof spec.default !== 'string') {
    throw mistake(`is a ${spec.type} but defaults to a ${typeof spec.default}`);
  }
  const parsed = parseConfigValue(declaration, String(spec.default));
  if (!parsed.ok) throw mistake(`has an invalid default: ${parsed.problem}`);
  return { ...declaration, default: parsed.value };
}
