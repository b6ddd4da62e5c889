import type { ConfigKeyDeclaration, ConfigScalar } from './config-key-spec';

export type ParsedConfigValue = { ok: true; value: ConfigScalar } | { ok: false; problem: string };

type ParseRules = Pick<ConfigKeyDeclaration, 'type' | 'sensitive' | 'minLength' | 'min' | 'max' | 'oneOf'>;

// Strict on purpose: Number() and parseInt() accept "0x10", "1e3", " 12abc" and friends.
const INTEGER = /^[+-]?\d+$/;
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false };

/** Unset, empty and whitespace-only variables all mean "not configured". */
export function isBlankConfigValue(raw: string | undefined): raw is undefined {
  return raw === undefined || raw.trim() === '';
}

/**
 * Turns a non-blank variable into its typed value, or says what is wrong with it. A problem never
 * quotes a sensitive value, nor a URL (connection strings carry passwords even when the key is
 * not marked sensitive).
 */
export function parseConfigValue(rules: ParseRules, raw: string): ParsedConfigValue {
  const shown = (text: string) => (rules.sensitive ? '' : `, got "${text}"`);
  switch (rules.type) {
    case 'int': {
      const text = raw.trim();
      const value = Number(text);
      if (!INTEGER.test(text) || !Number.isSafeInteger(value)) return fail(`must be an integer${shown(text)}`);
      if (rules.min !== undefined && value < rules.min) return fail(`must be at least ${rules.min}${shown(text)}`);
      if (rules.max !== undefined && value > rules.max) return fail(`must be at most ${rules.max}${shown(text)}`);
      return { ok: true, value };
    }
    case 'boolean': {
      const text = raw.trim();
      const value = BOOLEANS[text.toLowerCase()];
      return value === undefined ? fail(`must be true, false, 1 or 0${shown(text)}`) : { ok: true, value };
    }
    case 'url': {
      const text = raw.trim();
      try {
        new URL(text);
      } catch {
        return fail('must be an absolute URL (scheme://host...)');
      }
      return checkLength(rules, text) ?? { ok: true, value: text };
    }
    case 'string': {
      // Kept verbatim: a secret may legitimately contain spaces.
      const lengthProblem = checkLength(rules, raw);
      if (lengthProblem) return lengthProblem;
      if (rules.oneOf && !rules.oneOf.includes(raw)) return fail(`must be one of ${rules.oneOf.join(', ')}${shown(raw)}`);
      return { ok: true, value: raw };
    }
  }
}

function checkLength(rules: ParseRules, text: string): ParsedConfigValue | undefined {
  if (rules.minLength !== undefined && text.length < rules.minLength) {
    return fail(`must be at least ${rules.minLength} characters, got ${text.length}`);
  }
  return undefined;
}

function fail(problem: string): ParsedConfigValue {
  return { ok: false, problem };
}
