import { AuthorizationAction, isAuthorizationAction } from './authorization-action';
import type { DecisionRequest, ResourceDescriptor } from './decision';
import { ValidationError } from './domain-error';
import { FieldProblems } from './field-problems';
import { permissionCode } from './permission-code';
import { isTenantId } from './tenant-id';
import { CALLER_KINDS, type CallerKind, type TrustedCaller } from './trusted-caller';

/**
 * A decision request the engine refuses to evaluate (unknown action, missing module or resource
 * type, malformed caller). Thrown instead of answering, so a malformed request can never come out
 * as a Permit; the guard treats the error as a denial. A `ValidationError`, so the problem filter
 * reports it as 400 `Validation.Failed` with the problems per field.
 */
export class InvalidDecisionRequestError extends ValidationError {
  constructor(errors: Record<string, string[]>) {
    super(errors, `The decision request is not valid: ${Object.keys(errors).join(', ')}.`);
  }
}

const OPTIONAL_RESOURCE_STRINGS = ['resourceId', 'status', 'sensitivity', 'owner', 'officeId'] as const;

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

function checkCaller(caller: unknown, problems: FieldProblems): void {
  if (!isObject(caller)) return problems.add('caller', 'is required');
  if (!CALLER_KINDS.includes(caller['kind'] as CallerKind)) problems.add('caller.kind', `must be one of ${CALLER_KINDS.join(', ')}`);
  if (!isNonEmptyString(caller['subject'])) problems.add('caller.subject', 'is required');
  if (!isNonEmptyString(caller['tenantId'])) problems.add('caller.tenantId', 'is required');
  else if (!isTenantId(caller['tenantId'])) problems.add('caller.tenantId', 'must be a tenant id (lower-case letters, digits, "_" and "-", at most 64)');
  const scopes = caller['scopes'];
  if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))) {
    problems.add('caller.scopes', 'must be a list of strings');
  }
  if (caller['kind'] === 'delegated' && !isNonEmptyString(caller['actor'])) problems.add('caller.actor', 'is required for a delegated caller');
  for (const key of ['actor', 'grantId', 'clientId'] as const) {
    if (caller[key] !== undefined && typeof caller[key] !== 'string') problems.add(`caller.${key}`, 'must be a string');
  }
}

function checkResource(resource: unknown, problems: FieldProblems): void {
  if (!isObject(resource)) return problems.add('resource', 'is required');
  for (const [key, segment] of [
    ['module', 'module'],
    ['resourceType', 'resource'],
  ] as const) {
    const value = resource[key];
    if (!isNonEmptyString(value)) problems.add(`resource.${key}`, 'is required');
    else {
      const problem = segmentProblem(value, segment);
      if (problem) problems.add(`resource.${key}`, problem);
    }
  }
  for (const key of OPTIONAL_RESOURCE_STRINGS) {
    if (resource[key] !== undefined && typeof resource[key] !== 'string') problems.add(`resource.${key}`, 'must be a string');
  }
  const amount = resource['amount'];
  if (amount !== undefined && !(typeof amount === 'number' && Number.isFinite(amount))) problems.add('resource.amount', 'must be a finite number');
}

declare const validDecisionRequest: unique symbol;

/**
 * A decision request checked by `validateDecisionRequest`: module and resource type in lower case,
 * the caller's scopes defaulted. The engine, the caches and the DataScope resolver take only this
 * type, so a request is checked once, where it enters (the RPC contract, the HTTP controller).
 */
export type ValidDecisionRequest = DecisionRequest & { readonly [validDecisionRequest]: true };

/**
 * Checks a decision request where it enters the decision service (it arrives over RPC or HTTP, so
 * its types are not guaranteed) and returns a new object with `module` and `resourceType` in lower
 * case, as permission codes are, and the caller's scopes defaulted to none.
 * @throws InvalidDecisionRequestError listing every problem at once.
 */
export function validateDecisionRequest(request: unknown): ValidDecisionRequest {
  const problems = new FieldProblems();
  if (!isObject(request)) throw new InvalidDecisionRequestError({ request: ['must be an object'] });
  checkCaller(request['caller'], problems);
  checkResource(request['resource'], problems);
  if (!isAuthorizationAction(request['action'])) problems.add('action', `unknown action ${JSON.stringify(request['action'])}`);
  if (problems.size > 0) throw new InvalidDecisionRequestError(problems.toRecord());

  const valid = request as unknown as DecisionRequest;
  // Object.assign, not `{ ...x, more }`: V8 (Node 20) takes a slow path (about 1 µs) for an object spread followed by more properties, and every decision comes through here.
  const caller: TrustedCaller = Object.assign({}, valid.caller, { scopes: valid.caller.scopes ?? [] });
  const resource: ResourceDescriptor = Object.assign({}, valid.resource, {
    module: valid.resource.module.toLowerCase(),
    resourceType: valid.resource.resourceType.toLowerCase(),
  });
  return Object.assign({}, valid, { caller, resource }) as ValidDecisionRequest;
}

/** What a service asks `authz.decide` / `authz.explain` about, beside the caller. */
export interface DecisionQuery {
  resource: ResourceDescriptor;
  action: AuthorizationAction;
  correlationId?: string;
  /** `authz.decide` only: every evaluator's verdict and reason in the reply. */
  withReasons?: boolean;
}

const QUERY_FIELDS = new Set(['resource', 'action', 'correlationId', 'withReasons']);

function queryOf(caller: unknown, query: unknown, at: string): ValidDecisionRequest {
  if (!isObject(query)) throw new InvalidDecisionRequestError({ [at]: ['must be an object'] });
  const problems = new FieldProblems();
  for (const key of Object.keys(query)) if (!QUERY_FIELDS.has(key)) problems.add(`${at}.${key}`, 'is not a field of a decision query');
  if (query['correlationId'] !== undefined && typeof query['correlationId'] !== 'string') problems.add('correlationId', 'must be a string');
  if (query['withReasons'] !== undefined && typeof query['withReasons'] !== 'boolean') problems.add('withReasons', 'must be a boolean');
  if (problems.size > 0) throw new InvalidDecisionRequestError(problems.toRecord());
  return validateDecisionRequest(Object.assign({ caller }, query));
}

/**
 * The message schema of `authz.decide` and `authz.explain`: `{ caller, payload: DecisionQuery }`,
 * handed to the handler as one `ValidDecisionRequest`. Hand-written rather than a
 * zod schema because every guarded request of the fleet comes through it (see validateDecisionRequest).
 */
export const decisionMessageSchema = {
  parse(input: unknown): ValidDecisionRequest {
    if (!isObject(input)) throw new InvalidDecisionRequestError({ message: ['must be an object'] });
    return queryOf(input['caller'], input['payload'], 'payload');
  },
};

/** Largest `authz.decide-batch`. */
export const MAX_DECISION_BATCH = 100;

/** `authz.decide-batch`: `{ caller, payload: { requests: DecisionQuery[] } }`, one caller for the whole batch. */
export const decisionBatchMessageSchema = {
  parse(input: unknown): ValidDecisionRequest[] {
    if (!isObject(input)) throw new InvalidDecisionRequestError({ message: ['must be an object'] });
    const payload = input['payload'];
    const requests = isObject(payload) ? payload['requests'] : undefined;
    if (!Array.isArray(requests) || requests.length === 0 || requests.length > MAX_DECISION_BATCH) {
      throw new InvalidDecisionRequestError({ requests: [`a batch holds 1 to ${MAX_DECISION_BATCH} requests`] });
    }
    return requests.map((query, i) => queryOf(input['caller'], query, `requests[${i}]`));
  },
};
