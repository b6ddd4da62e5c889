import { ProblemCodes } from '@lp/contracts';
import { CacheUnavailableError } from '@lp/platform/cache';
import { toProblem } from './problem-details.filter';

describe('an infrastructure failure is a retryable 503, not a 500', () => {
  it('answers a cache that cannot be reached (e.g. a revision bump with Redis down) with 503 ServiceUnavailable', () => {
    const problem = toProblem(new CacheUnavailableError('Redis: circuit open'), 'c-1');
    expect(problem).toMatchObject({ status: 503, code: ProblemCodes.unavailable, correlationId: 'c-1' });
    // The reason stays in the logs: the client learns only that it may retry.
    expect(JSON.stringify(problem)).not.toContain('Redis');
  });

  it('still answers an unknown error with a 500 that names nothing internal', () => {
    expect(toProblem(new Error('boom: secret detail'), 'c-2')).toMatchObject({ status: 500, code: 'InternalError' });
    expect(JSON.stringify(toProblem(new Error('boom: secret detail')))).not.toContain('secret');
  });
});
