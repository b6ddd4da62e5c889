import {
  AuthorizationAction,
  CallerKind,
  DecisionRequest,
  isAuthorizationAction,
  permissionCode,
  ResourceDescriptor,
  TrustedCaller,
} from '@lp/contracts';
import { InvalidDecisionRequestError } from './decision.errors';

const CALLER_KINDS: readonly CallerKind[] = ['user', 'application', 'delegated'];
const OPTIONAL_RESOURCE_STRINGS = ['resourceId', 'status', 'sensitivity', 'owner', 'officeId'] as const;

type Problems = Record<string, string[]>;

function add(problems: Problems, field: string, problem: string): void {
  (problems[field] ??= []).push(problem);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** The problem `permissionCode` finds with one segment, using its rule rather than a copy of it. */
function segmentProblem(value: string, segment: 'module' | 'resource'): string | undefined {
  try {
    if (segment === 'module') permissionCode(value, 'probe', AuthorizationAction.View);
    else permissionCode('probe', value, AuthorizationAction.View);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function checkCaller(caller: unknown, problems: Problems): void {
  if (!isObject(caller)) return add(problems, 'caller', 'is required');
  if (!CALLER_KINDS.includes(caller['kind'] as CallerKind)) add(problems, 'caller.kind', `must be one of ${CALLER_KINDS.join(', ')}`);
  if (!isNonEmptyString(caller['subject'])) add(problems, 'caller.subject', 'is required');
  if (!isNonEmptyString(caller['tenantId'])) add(problems, 'caller.tenantId', 'is required');
  const scopes = caller['scopes'];
  if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))) {
    add(problems, 'caller.scopes', 'must be a list of strings');
  }
  if (caller['kind'] === 'delegated' && !isNonEmptyString(caller['actor'])) add(problems, 'caller.actor', 'is required for a delegated caller');
  for (const key of ['actor', 'grantId', 'clientId'] as const) {
    if (caller[key] !== undefined && typeof caller[key] !== 'string') add(problems, `caller.${key}`, 'must be a string');
  }
}

function checkResource(resource: unknown, problems: Problems): void {
  if (!isObject(resource)) return add(problems, 'resource', 'is required');
  for (const [key, segment] of [
    ['module', 'module'],
    ['resourceType', 'resource'],
  ] as const) {
    const value = resource[key];
    if (!isNonEmptyString(value)) add(problems, `resource.${key}`, 'is required');
    else {
      const problem = segmentProblem(value, segment);
      if (problem) add(problems, `resource.${key}`, problem);
    }
  }
  for (const key of OPTIONAL_RESOURCE_STRINGS) {
    if (resource[key] !== undefined && typeof resource[key] !== 'string') add(problems, `resource.${key}`, 'must be a string');
  }
  const amount = resource['amount'];
  if (amount !== undefined && !(typeof amount === 'number' && Number.isFinite(amount))) add(problems, 'resource.amount', 'must be a finite number');
}

/**
 * Checks a decision request at the engine's boundary (it arrives over RPC, so its types are not
 * guaranteed) and returns a copy with `module` and `resourceType` in lower case, as permission
 * codes are, and the caller's scopes defaulted to none.
 * @throws InvalidDecisionRequestError listing every problem at once.
 */
/**
 * Requests this module produced. The cache, the engine and the DataScope resolver each validate
 * what they are given; a request that is already a normalized result passes straight through, so
 * one decision is checked once, not at every step of the hot path.
 */
const normalized = new WeakSet<object>();

export function validateDecisionRequest(request: unknown): DecisionRequest {
  if (isObject(request) && normalized.has(request)) return request as unknown as DecisionRequest;
  const problems: Problems = {};
  if (!isObject(request)) throw new InvalidDecisionRequestError({ request: ['must be an object'] });
  checkCaller(request['caller'], problems);
  checkResource(request['resource'], problems);
  if (!isAuthorizationAction(request['action'])) add(problems, 'action', `unknown action ${JSON.stringify(request['action'])}`);
  if (Object.keys(problems).length > 0) throw new InvalidDecisionRequestError(problems);

  const valid = request as unknown as DecisionRequest;
  // Object.assign, not `{ ...x, more }`: V8 (Node 20) takes a slow path (about 1 µs) for an object spread followed by more properties, and every decision comes through here.
  const caller: TrustedCaller = Object.assign({}, valid.caller, { scopes: valid.caller.scopes ?? [] });
  const resource: ResourceDescriptor = Object.assign({}, valid.resource, {
    module: valid.resource.module.toLowerCase(),
    resourceType: valid.resource.resourceType.toLowerCase(),
  });
  const result: DecisionRequest = Object.assign({}, valid, { caller, resource });
  normalized.add(result);
  return result;
}
