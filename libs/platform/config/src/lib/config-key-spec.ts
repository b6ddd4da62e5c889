/** How an environment variable's text is turned into a typed value. */
export type ConfigKeyType = 'string' | 'int' | 'boolean' | 'url';

export type ConfigScalar = string | number | boolean;

/** What a service writes for one key in `declareConfig(owner, { KEY: spec })`. */
export interface ConfigKeySpec {
  type: ConfigKeyType;
  /** Section of the operations configuration report (`http`, `database`, `jwt`, ...). */
  group: string;
  description: string;
  /** Boot fails when the key is blank. A required key cannot also have a default. */
  required?: boolean;
  /** For `string` and `url`: a shorter value is a problem at boot and `too-short` in the report. */
  minLength?: number;
  /** Never shown: problems and the report give only its length. */
  sensitive?: boolean;
  /** Used when the variable is blank; a string default is parsed like the variable would be. */
  default?: ConfigScalar;
  /** For `int`: inclusive bounds. */
  min?: number;
  max?: number;
  /** For `string`: the allowed values (the loaded value is typed as their union). */
  oneOf?: readonly string[];
}

/** One declared key with its owner, normalized: the shape the registry lists and reports on. */
export interface ConfigKeyDeclaration {
  readonly key: string;
  readonly owner: string;
  readonly type: ConfigKeyType;
  readonly group: string;
  readonly description: string;
  readonly required: boolean;
  readonly sensitive: boolean;
  readonly minLength?: number;
  /** Already parsed to the key's type. */
  readonly default?: ConfigScalar;
  readonly min?: number;
  readonly max?: number;
  readonly oneOf?: readonly string[];
}
