import { RPC_CONTRACTS, SEEDED_ADMIN_SUBJECT, SEEDED_TENANT, TrustedCaller } from '@lp/contracts';
import { RpcClient, RpcRemoteError } from '@lp/platform/messaging';
import { describeWithServers } from '@lp/platform/testing';
import { OperationsTestPlatform } from './support/operations-platform';

const admin: TrustedCaller = { kind: 'user', subject: SEEDED_ADMIN_SUBJECT, tenantId: SEEDED_TENANT, scopes: [], claimsDigest: 'admin' };

/** Messages of the wrong shape, each sent to every pattern. */
const WRONG_SHAPES: Array<[string, unknown]> = [
  ['null', null],
  ['a string', 'decide please'],
  ['an array', [admin]],
  ['no caller', { payload: {} }],
  ['a caller without a tenant', { caller: { kind: 'user', subject: 'x', scopes: [], claimsDigest: 'x' }, payload: {} }],
  ['a null payload', { caller: admin, payload: null }],
  ['a string payload', { caller: admin, payload: 'x' }],
  ['a payload of unknown fields', { caller: admin, payload: { surprise: true, nested: { deeper: [1, 2, 3] } } }],
  ['numbers where strings go', { caller: admin, payload: { resource: 1, action: 2, subject: 3, tenantId: 4, events: 5, requests: 6, sample: 'x' } }],
];

/**
 * Every RPC contract of the fleet, over the real services and transport: a message of the wrong
 * shape is answered with a client error (400 `Validation.Failed`, or 401 where the guard finds no
 * caller) naming what is wrong, never a 5xx, a timeout or a crash of the handler.
 */
describeWithServers(['postgres', 'rabbitmq', 'redis'], 'RPC contracts refuse messages of the wrong shape', () => {
  // The whole fleet, so every service's patterns have their server (case-management's included).
  const platform = new OperationsTestPlatform('rpc-contracts');
  let rpc: RpcClient;

  beforeAll(async () => {
    await platform.start();
    rpc = platform.policy.app.get(RpcClient);
  }, 90_000);
  afterAll(() => platform.stop());

  it.each(RPC_CONTRACTS.map((contract) => [contract.pattern, contract] as const))('%s', async (_pattern, contract) => {
    for (const [what, message] of WRONG_SHAPES) {
      const error = await rpc.send(contract.pattern, message, { service: contract.service, timeoutMs: 5_000 }).then(
        () => new Error(`${contract.pattern} accepted ${what}`),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RpcRemoteError);
      const problem = (error as RpcRemoteError).problem;
      expect({ what, status: problem.status, code: problem.code, clientError: [400, 401].includes(problem.status) }).toMatchObject({ what, clientError: true });
      if (problem.status === 400) {
        expect(problem.code).toBe('Validation.Failed');
        expect(Object.keys(problem.errors ?? {}).length).toBeGreaterThan(0);
      }
    }
  });
});
