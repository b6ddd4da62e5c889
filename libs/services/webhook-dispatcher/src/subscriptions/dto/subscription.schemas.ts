import { z } from 'zod';
import {
  MAX_CALLBACK_URL_LENGTH,
  MAX_SECRET_ROTATION_OVERLAP_SECONDS,
  MAX_SUBSCRIPTION_DESCRIPTION_LENGTH,
  MAX_SUBSCRIPTION_EVENT_TYPES,
  MAX_SUBSCRIPTION_RETRIES,
  webhookPatternProblem,
} from '@lp/contracts';

/** No whitespace or control character anywhere: the URL parser would silently drop some of them. */
const NO_SPACE_OR_CONTROL = /^[^\s\p{Cc}]*$/u;

/** Why a callback URL is refused, or null. `requireHttps`: the production rule. */
export function callbackUrlProblem(text: string, requireHttps: boolean): string | null {
  if (text.length === 0) return 'callbackUrl must not be empty';
  if (!NO_SPACE_OR_CONTROL.test(text)) return 'callbackUrl must not contain whitespace or control characters';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'callbackUrl must be an absolute URL, e.g. https://example.com/webhooks';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'callbackUrl must use http: or https:';
  if (url.username !== '' || url.password !== '' || /^[a-z]+:\/\/[^/?#]*@/i.test(text)) {
    return 'callbackUrl must not carry credentials (user:password@): receivers authenticate deliveries by their signature';
  }
  // `#` can only start a fragment; `new URL('https://x/#').hash` is empty, so look at the text.
  if (text.includes('#')) return 'callbackUrl must not have a fragment (#...): it is never sent';
  if (requireHttps && url.protocol !== 'https:') return 'callbackUrl must use https: in production';
  return null;
}

/**
 * A callback URL as it is stored, shown and called: its WHATWG serialization (`new URL(x).href`),
 * the form every HTTP client (ours included, at delivery) resolves the text to anyway. So
 * `HTTP://Example.com/x`, `http:/example.com/x` and `http:\\example.com\x` are stored as
 * `http://example.com/x` (what Svix and Stripe do), instead of passing validation and failing the
 * table's `^https?://` check with a 500. The limit holds for the stored form, which may be longer
 * (percent-encoding, punycode).
 */
function callbackUrl(requireHttps: boolean) {
  const tooLong = `callbackUrl must be at most ${MAX_CALLBACK_URL_LENGTH} characters`;
  return z
    .string({ error: 'callbackUrl must be a string' })
    .max(MAX_CALLBACK_URL_LENGTH, tooLong)
    .transform((text, ctx) => {
      const problem = callbackUrlProblem(text, requireHttps);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      const href = new URL(text).href;
      if (href.length > MAX_CALLBACK_URL_LENGTH) {
        ctx.addIssue({ code: 'custom', message: `${tooLong} once normalized` });
        return z.NEVER;
      }
      return href;
    });
}

const eventTypes = z
  .array(z.string({ error: 'each event type must be a string' }), { error: 'eventTypes must be an array of event type patterns' })
  .min(1, 'eventTypes must list at least one event type pattern')
  .max(MAX_SUBSCRIPTION_EVENT_TYPES, `eventTypes must list at most ${MAX_SUBSCRIPTION_EVENT_TYPES} patterns`)
  .superRefine((patterns, ctx) => {
    const seen = new Map<string, number>();
    patterns.forEach((pattern, index) => {
      const problem = webhookPatternProblem(pattern);
      if (problem) ctx.addIssue({ code: 'custom', path: [index], message: problem });
      const first = seen.get(pattern);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: [index], message: `duplicates eventTypes[${first}]` });
      else seen.set(pattern, index);
    });
  });

const description = z
  .string({ error: 'description must be a string or null' })
  .max(MAX_SUBSCRIPTION_DESCRIPTION_LENGTH, `description must be at most ${MAX_SUBSCRIPTION_DESCRIPTION_LENGTH} characters`)
  .nullable();
const isActive = z.boolean({ error: 'isActive must be true or false' });
const maxRetries = z
  .number({ error: `maxRetries must be an integer 0..${MAX_SUBSCRIPTION_RETRIES}, or null for the default` })
  .int(`maxRetries must be an integer 0..${MAX_SUBSCRIPTION_RETRIES}, or null for the default`)
  .min(0, `maxRetries must be an integer 0..${MAX_SUBSCRIPTION_RETRIES}, or null for the default`)
  .max(MAX_SUBSCRIPTION_RETRIES, `maxRetries must be an integer 0..${MAX_SUBSCRIPTION_RETRIES}, or null for the default`)
  .nullable();

/**
 * The bodies of the subscription routes. `requireHttps` (NODE_ENV=production) makes a plain
 * `http:` callback URL a field error under `callbackUrl`, reported with every other problem.
 */
export function subscriptionSchemas({ requireHttps }: { requireHttps: boolean }) {
  const create = z.strictObject({
    callbackUrl: callbackUrl(requireHttps),
    eventTypes,
    description: description.optional(),
    isActive: isActive.optional(),
    maxRetries: maxRetries.optional(),
  });
  const update = z
    .strictObject({
      callbackUrl: callbackUrl(requireHttps).optional(),
      eventTypes: eventTypes.optional(),
      description: description.optional(),
      isActive: isActive.optional(),
      maxRetries: maxRetries.optional(),
    })
    .refine((body) => Object.values(body).some((value) => value !== undefined), {
      message: 'give at least one of callbackUrl, eventTypes, description, isActive, maxRetries',
      // Only when the body is otherwise valid: an unknown field alone is reported as that, not as "nothing given".
      when: (payload) => payload.issues.length === 0,
    });
  return { create, update };
}

/** `POST .../rotate-secret`: an optional overlap override; no body at all is the configured overlap. */
export const rotateSecretSchema = z
  .strictObject({
    overlapSeconds: z
      .number({ error: `overlapSeconds must be an integer 0..${MAX_SECRET_ROTATION_OVERLAP_SECONDS}` })
      .int(`overlapSeconds must be an integer 0..${MAX_SECRET_ROTATION_OVERLAP_SECONDS}`)
      .min(0, `overlapSeconds must be an integer 0..${MAX_SECRET_ROTATION_OVERLAP_SECONDS}`)
      .max(MAX_SECRET_ROTATION_OVERLAP_SECONDS, `overlapSeconds must be an integer 0..${MAX_SECRET_ROTATION_OVERLAP_SECONDS}`)
      .optional(),
  })
  .optional()
  .transform((body) => body ?? {});

export type SubscriptionSchemas = ReturnType<typeof subscriptionSchemas>;
export type ValidCreateSubscription = z.output<SubscriptionSchemas['create']>;
export type ValidUpdateSubscription = z.output<SubscriptionSchemas['update']>;
export type ValidRotateSecret = z.output<typeof rotateSecretSchema>;
