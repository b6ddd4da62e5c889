import { z } from 'zod';
import { ValidationError } from '../domain-error';
import { FieldProblems } from '../field-problems';
import { tenantIdSchema } from '../tenant-id';
import type { TrustedCaller } from '../trusted-caller';

/**
 * What a contract checks a message with on receipt: `parse` returns the message as the handler
 * sees it (defaults applied, strings normalized) or throws. A zod schema is one; a hand-written
 * parser on a hot path (authz.decide) is another. A thrown `ZodError` is reported per field by the
 * receiving side (`Validation.Failed`), any other error as it is.
 */
export interface MessageSchema<TOut> {
  parse(input: unknown): TOut;
}

/** The caller an asking service authenticated (its token's claims), as it travels in every RPC message. */
export const trustedCallerSchema: z.ZodType<TrustedCaller> = z
  .object({
    kind: z.enum(['user', 'application', 'delegated']),
    subject: z.string().trim().min(1),
    // The token's tenant, as the platform auth accepted it: held to the tenant id rule again here,
    // since a caller on the broker is only as trusted as the service that put it there.
    tenantId: tenantIdSchema('caller.tenantId'),
    clientId: z.string().optional(),
    scopes: z.array(z.string()).default([]),
    actor: z.string().optional(),
    grantId: z.string().optional(),
    claimsDigest: z.string(),
    expiresAt: z.number().optional(),
  })
  .refine((caller) => caller.kind !== 'delegated' || (caller.actor !== undefined && caller.actor.trim() !== ''), {
    path: ['actor'],
    message: 'is required for a delegated caller',
  });

/** An ISO 8601 instant, as every time in a payload travels. */
export const isoInstant = z.iso.datetime({ offset: true });

/** A non-empty string of at most `max` characters. */
export const text = (max = 255) => z.string().min(1).max(max);

/**
 * A zod failure as the platform reports validation: `{ "path.to.field": ["message", ...] }`, an
 * unknown field under its own name. A failure of the root itself (not an object at all) is reported
 * under `dropRoot`, or `message` without one.
 */
export function problemsOf(error: z.ZodError, dropRoot?: string): Record<string, string[]> {
  const problems = new FieldProblems();
  for (const issue of error.issues) {
    const path = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('');
    const relative = dropRoot !== undefined && path.startsWith(`${dropRoot}.`) ? path.slice(dropRoot.length + 1) : path;
    const field = relative === '' || relative === dropRoot ? (dropRoot ?? 'message') : relative;
    if (issue.code === 'unrecognized_keys') {
      // One entry per unknown field, under the field's own name, in the words of the HTTP validation pipe.
      const parent = relative === '' || relative === dropRoot ? '' : `${relative}.`;
      for (const key of issue.keys) problems.add(`${parent}${key}`, `property ${key} should not exist`);
      continue;
    }
    problems.add(field, issue.message);
  }
  return problems.toRecord();
}

/**
 * Checks a received message with its schema; a zod failure becomes a `ValidationError` with a
 * problem per field (payload fields named without the `payload.` prefix, as on HTTP).
 */
export function parseMessage<T>(schema: MessageSchema<T>, input: unknown): T {
  try {
    return schema.parse(input);
  } catch (error) {
    if (error instanceof z.ZodError) throw new ValidationError(problemsOf(error, 'payload'));
    throw error;
  }
}
