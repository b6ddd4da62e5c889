import { MATTER_NUMBER_PATTERN } from '@lp/contracts';

/** Digits the sequence is padded to; numbers past 999999 in one tenant and year simply grow longer. */
export const MATTER_SEQUENCE_DIGITS = 6;

/**
 * `LIT-{year}-{sequence}`: the human-readable matter number of a case, e.g. `LIT-2026-000123`. The
 * sequence counts per tenant and UTC year from 1 (drawn from `cases.matter_sequence`), so numbers of
 * one tenant sort by creation within a year and never repeat.
 */
export function formatMatterNumber(year: number, sequence: number): string {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new RangeError(`matter number year must be a four-digit integer, got ${year}`);
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`matter number sequence must be a positive integer, got ${sequence}`);
  return `LIT-${year}-${String(sequence).padStart(MATTER_SEQUENCE_DIGITS, '0')}`;
}

/** The parts of a matter number, or undefined for anything that is not one. */
export function parseMatterNumber(value: string): { year: number; sequence: number } | undefined {
  if (!MATTER_NUMBER_PATTERN.test(value)) return undefined;
  const [, year, sequence] = value.split('-');
  return { year: Number(year), sequence: Number(sequence) };
}
