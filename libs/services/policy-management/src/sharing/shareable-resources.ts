/**
 * Resource types whose instances can be shared: exactly those the decision core's ReBAC evaluator
 * reads relations for (authz-decision `REBAC_RESOURCE_TYPES`, spec §1: Case, Client, Billing). A
 * share of anything else would be stored and never take effect, so it is refused. Kept here as a
 * copy because a service may not import another service; the sharing end-to-end spec checks that
 * every listed type yields a ReBAC Allow.
 */
export const SHAREABLE_RESOURCE_TYPES = ['case', 'client', 'billing'] as const;
export type ShareableResourceType = (typeof SHAREABLE_RESOURCE_TYPES)[number];
