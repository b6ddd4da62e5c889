import { AnyRpcContract, AuthorizationAction, AuthorizationDeniedError, AuthzRpc, DecisionResult, MessageOf, TrustedCaller } from '@lp/contracts';
import { RpcClient } from '@lp/platform/messaging';
import { DecisionClient } from './decision-client';
import { PermissionCheck } from './permission-check';

const caller: TrustedCaller = { kind: 'user', subject: 'ann', tenantId: 'acme', scopes: [], claimsDigest: 'd' };
const featureDefault = { module: 'authorization', resource: 'feature-default', action: AuthorizationAction.Update };
/** What AuthzGuardModule.forRoot is given in a service (AUTHZ_DECISION_TIMEOUT_MS's default). */
const OPTIONS = { decisionTimeoutMs: 3_000, service: 'test' };

function result(outcome: DecisionResult['outcome'], permitted = outcome === 'Permit'): DecisionResult {
  return { outcome, permitted, decisionId: 'd1', evaluations: [], obligations: [], dataScope: { kind: 'tenant', tenantId: 'acme' }, cached: false };
}

/** An RpcClient stand-in that records what is asked and answers as scripted. */
function rpcAnswering(answer: () => Promise<unknown>) {
  const sent: Array<{ pattern: string; data: MessageOf<typeof AuthzRpc.decide>; options?: { timeoutMs?: number } }> = [];
  const rpc = {
    call: (contract: AnyRpcContract, data: MessageOf<typeof AuthzRpc.decide>, options?: { timeoutMs?: number }) => {
      sent.push({ pattern: contract.pattern, data, options });
      return answer();
    },
  } as unknown as RpcClient;
  return { rpc, sent };
}

describe('PermissionCheck', () => {
  it('asks authz.decide for the caller, the declared permission and the given facts, with the guard timeout', async () => {
    const { rpc, sent } = rpcAnswering(async () => result('Permit'));
    const check = new PermissionCheck(new DecisionClient(rpc, { decisionTimeoutMs: 250, service: 'test' }));
    await expect(check.require(caller, { ...featureDefault, facts: { resourceId: 'tickets' } })).resolves.toMatchObject({ outcome: 'Permit' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.pattern).toBe(AuthzRpc.decide.pattern);
    expect(sent[0]!.data).toMatchObject({
      caller,
      payload: { action: AuthorizationAction.Update, resource: { module: 'authorization', resourceType: 'feature-default', resourceId: 'tickets' } },
    });
    expect(sent[0]!.options).toEqual({ timeoutMs: 250 });
  });

  it.each([
    ['Deny', result('Deny')],
    ['NoMatchingPolicy', result('NoMatchingPolicy')],
    ['a Permit outcome that is not permitted', result('Permit', false)],
    ['an empty answer', undefined],
  ])('denies on %s', async (_label, answer) => {
    const check = new PermissionCheck(new DecisionClient(rpcAnswering(async () => answer).rpc, OPTIONS));
    await expect(check.require(caller, featureDefault)).rejects.toBeInstanceOf(AuthorizationDeniedError);
    await expect(check.allows(caller, featureDefault)).resolves.toBe(false);
  });

  it('fails closed when the decision service cannot be reached, with a 503 told apart from a denial', async () => {
    const check = new PermissionCheck(new DecisionClient(rpcAnswering(() => Promise.reject(new Error('timeout'))).rpc, OPTIONS));
    await expect(check.require(caller, featureDefault)).rejects.toMatchObject({ code: 'Authorization.Unavailable', status: 503, retryAfterSeconds: 1 });
    await expect(check.allows(caller, featureDefault)).resolves.toBe(false);
  });

  it('treats a decision that failed closed (audit or policy store down) as unavailable, not as a denial', async () => {
    const check = new PermissionCheck(new DecisionClient(rpcAnswering(async () => ({ ...result('Deny'), failure: 'AuditUnavailable' })).rpc, OPTIONS));
    await expect(check.require(caller, featureDefault)).rejects.toMatchObject({ code: 'Authorization.Unavailable', status: 503 });
    await expect(check.allows(caller, featureDefault)).resolves.toBe(false);
  });

  it('rejects a malformed permission as a programming error without asking', async () => {
    const { rpc, sent } = rpcAnswering(async () => result('Permit'));
    const check = new PermissionCheck(new DecisionClient(rpc, OPTIONS));
    await expect(check.require(caller, { module: 'Authorization!', resource: 'feature', action: AuthorizationAction.Update })).rejects.not.toBeInstanceOf(
      AuthorizationDeniedError,
    );
    expect(sent).toHaveLength(0);
  });
});
