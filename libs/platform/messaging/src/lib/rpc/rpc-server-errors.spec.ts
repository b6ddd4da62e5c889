import { LoggerService } from '@nestjs/common';
import { AuthorizationUnavailableError } from '@lp/contracts';
import { rpcWireError } from './rpc-server-errors';

function recordingLogger() {
  const calls: string[] = [];
  const logger: LoggerService = {
    log: () => calls.push('log'),
    warn: () => calls.push('warn'),
    error: () => calls.push('error'),
    debug: () => calls.push('debug'),
  };
  return { logger, calls };
}

describe('rpcWireError', () => {
  it('answers an unavailable dependency with its 503 problem and logs it at debug only, as HTTP does', () => {
    const { logger, calls } = recordingLogger();
    expect(rpcWireError(new AuthorizationUnavailableError(), logger)).toMatchObject({ status: 503, code: 'Authorization.Unavailable' });
    expect(calls).toEqual(['debug']);
  });

  it('logs any other failure as an error, and answers a 500 that says nothing internal', () => {
    const { logger, calls } = recordingLogger();
    const answer = rpcWireError(new Error('secret detail'), logger);
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer)).not.toContain('secret detail');
    expect(calls).toEqual(['error']);
  });
});
