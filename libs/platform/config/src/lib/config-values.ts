import type { ConfigKeySpec, ConfigScalar } from './config-key-spec';

type ValueOfKey<S extends ConfigKeySpec> = S['type'] extends 'int'
  ? number
  : S['type'] extends 'boolean'
    ? boolean
    : S extends { oneOf: readonly (infer Allowed extends string)[] }
      ? Allowed
      : string;

type AlwaysSet<S extends ConfigKeySpec> = S extends { required: true } ? true : S extends { default: ConfigScalar } ? true : false;

/**
 * The loaded configuration, keyed by variable name and typed from each key's spec: a key that is
 * neither required nor defaulted may be absent, so it is `| undefined`.
 */
export type ConfigValues<T extends Record<string, ConfigKeySpec>> = {
  readonly [K in keyof T]: AlwaysSet<T[K]> extends true ? ValueOfKey<T[K]> : ValueOfKey<T[K]> | undefined;
};
