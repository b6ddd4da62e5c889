import { ResourceDescriptor, TrustedCaller } from '@lp/contracts';

/** What a facts loader may look at: the route's identifiers and the trusted caller, never body-declared facts. */
export interface ResourceFactsInput {
  caller: TrustedCaller;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** RPC payload for RPC handlers. */
  payload?: unknown;
}

/** Facts a loader returns; module and resource type always come from the declaration. */
export type ResourceFacts = Omit<Partial<ResourceDescriptor>, 'module' | 'resourceType'>;

/**
 * Loads resource facts from the owning service's own data, e.g. a case's owner and status by the
 * `caseId` route parameter. Implementations are Nest providers of the service that owns the data.
 */
export interface ResourceFactsLoader {
  load(input: ResourceFactsInput): Promise<ResourceFacts>;
}
