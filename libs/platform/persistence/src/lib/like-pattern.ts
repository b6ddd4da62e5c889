/**
 * A user's search text as a LIKE/ILIKE operand matched with `ESCAPE '\'`: `%`, `_` and `\` in it
 * are text, not patterns, so a search for `50%` finds "50%" and not every name starting with 50.
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The operand of "contains `text`" (`column ILIKE :operand ESCAPE '\'`). */
export function containsPattern(text: string): string {
  return `%${likeLiteral(text)}%`;
}
