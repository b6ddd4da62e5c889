import { Logger } from '@nestjs/common';
import { AuthorizationUnavailableError, DecisionReply } from '@lp/contracts';
import { RpcDeadlineExceededError, RpcTimeoutError } from '@lp/platform/messaging';
import { DecisionOutcomeReader } from './decision-outcome';

/** A Logger that records what the reader says, by level. */
function recordingLogger() {
  const lines: Array<[string, string]> = [];
  const logger = {
    warn: (message: string) => lines.push(['warn', message]),
    log: (message: string) => lines.push(['log', message]),
    debug: (message: string) => lines.push(['debug', message]),
  } as unknown as Logger;
  return { logger, lines };
}

const permit: DecisionReply = {
  outcome: 'Permit',
  permitted: true,
  decisionId: 'd1',
  obligations: [],
  dataScope: { kind: 'tenant', tenantId: 't' },
  cached: false,
};

describe('DecisionOutcomeReader', () => {
  it('reports an outage once when the decision RPC times out, and its end once a decision comes', () => {
    const { logger, lines } = recordingLogger();
    const reader = new DecisionOutcomeReader(logger);
    expect(reader.rpcFailed(new RpcTimeoutError('authz.decide', 3_000))).toBeInstanceOf(AuthorizationUnavailableError);
    expect(reader.rpcFailed(new RpcTimeoutError('authz.decide', 3_000))).toBeInstanceOf(AuthorizationUnavailableError);
    reader.permitOrThrow(permit);
    expect(lines.filter(([level]) => level !== 'debug')).toEqual([
      ['warn', expect.stringContaining('authorization decisions unavailable (rpc: RPC authz.decide got no answer within 3000 ms)')],
      ['log', 'authorization decisions answer again'],
    ]);
  });

  it("fails closed with 503 when the request's own deadline ran out, without reporting decisions unavailable", () => {
    const { logger, lines } = recordingLogger();
    const reader = new DecisionOutcomeReader(logger);
    // Sent with the 17 ms the request had left, and no answer within them; or not sent at all.
    expect(reader.rpcFailed(new RpcDeadlineExceededError('authz.decide', 17))).toBeInstanceOf(AuthorizationUnavailableError);
    expect(reader.rpcFailed(new RpcDeadlineExceededError('authz.decide'))).toBeInstanceOf(AuthorizationUnavailableError);
    reader.permitOrThrow(permit);
    expect(lines.filter(([level]) => level !== 'debug')).toEqual([]);
  });
});
