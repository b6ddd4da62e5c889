import { ForbiddenException } from '@nestjs/common';
import { NO_MESSAGE_HANDLER } from '@nestjs/microservices/constants';
import { DomainError } from '@lp/contracts';
import { problem } from '@lp/platform/http';
import { RpcRemoteError, RpcTimeoutError, RpcTransportError, toRpcError } from './rpc-errors';
import { toRpcProblem } from './rpc-problem';

describe('toRpcError (client side: what a Nest client proxy emitted)', () => {
  it('keeps a problem answered by the server', () => {
    const sent = problem(409, 'Role.NameTaken', 'A role with this name exists.', { correlationId: 'c1' });
    const error = toRpcError(sent, 'authz.decide');
    expect(error).toBeInstanceOf(RpcRemoteError);
    expect(error.problem).toEqual(sent);
  });

  it('turns Nest’s bare error answer into a generic 500 problem', () => {
    const error = toRpcError({ status: 'error', message: 'Internal server error' }, 'p');
    expect(error).toBeInstanceOf(RpcRemoteError);
    expect(error.problem).toEqual(expect.objectContaining({ status: 500, code: 'InternalError' }));
  });

  it('names a missing handler', () => {
    const error = toRpcError(NO_MESSAGE_HANDLER, 'p');
    expect(error).toBeInstanceOf(RpcRemoteError);
    expect(error.problem).toEqual(expect.objectContaining({ status: 501, code: 'Rpc.NoHandler' }));
  });

  it.each([
    ['an Error', new Error('connect ECONNREFUSED 127.0.0.1:1')],
    ['a connectFailed event', { err: new Error('connect ECONNREFUSED'), url: 'amqp://127.0.0.1:1' }],
    ['the client’s connection-lost string', 'Error: Connection lost. Trying to reconnect...'],
  ])('treats %s as a transport failure', (_name, raw) => {
    const error = toRpcError(raw, 'p');
    expect(error).toBeInstanceOf(RpcTransportError);
    expect(error.problem).toEqual(expect.objectContaining({ status: 503, code: 'ServiceUnavailable' }));
  });

  it('passes an RpcError through', () => {
    const timeout = new RpcTimeoutError('p', 100);
    expect(toRpcError(timeout, 'p')).toBe(timeout);
  });
});

describe('toRpcProblem (server side: what a failed handler answers)', () => {
  it('keeps a domain error’s code, status, message and field errors', () => {
    const error = new DomainError('Validation.Failed', 400, 'The request is not valid.', { name: ['required'] });
    expect(toRpcProblem(error, 'c1')).toEqual(
      expect.objectContaining({
        status: 400,
        code: 'Validation.Failed',
        detail: 'The request is not valid.',
        errors: { name: ['required'] },
        correlationId: 'c1',
      }),
    );
  });

  it('keeps code and status of another error, hiding its message at 5xx', () => {
    const quota = Object.assign(new Error('Quota exceeded.'), { code: 'Quota.Exceeded', status: 429 });
    expect(toRpcProblem(quota)).toEqual(expect.objectContaining({ status: 429, code: 'Quota.Exceeded', detail: 'Quota exceeded.' }));
    const upstream = Object.assign(new Error('db at 10.0.0.5 refused'), { code: 'Upstream.Down', status: 503 });
    const answered = toRpcProblem(upstream);
    expect(answered).toEqual(expect.objectContaining({ status: 503, code: 'Upstream.Down' }));
    expect(JSON.stringify(answered)).not.toContain('10.0.0.5');
  });

  it('does not take a system error’s code for a domain code: a refused connection is a retryable outage, its address hidden', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    const answered = toRpcProblem(refused);
    expect(answered).toEqual(expect.objectContaining({ status: 503, code: 'ServiceUnavailable' }));
    expect(JSON.stringify(answered)).not.toMatch(/10\.0\.0\.5|ECONNREFUSED/);
    const odd = Object.assign(new Error('disk on fire'), { code: 'EFIRE' });
    expect(toRpcProblem(odd)).toEqual(expect.objectContaining({ status: 500, code: 'InternalError' }));
  });

  it('maps a guard’s HttpException and passes a downstream RPC problem through', () => {
    expect(toRpcProblem(new ForbiddenException())).toEqual(expect.objectContaining({ status: 403, code: 'Authorization.Denied' }));
    const downstream = new RpcRemoteError('cases.get', problem(404, 'NotFound', 'Case was not found.'));
    expect(toRpcProblem(downstream, 'c2')).toEqual(expect.objectContaining({ status: 404, code: 'NotFound', correlationId: 'c2' }));
    expect(toRpcProblem(new RpcTimeoutError('authz.decide', 50))).toEqual(expect.objectContaining({ status: 504 }));
  });
});
