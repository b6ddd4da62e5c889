import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';
import { rpcWireError } from './rpc-server-errors';

/**
 * Answers a failed RPC handler (or guard, or pipe) with a problem object, keeping the `code` and
 * `status` of a domain error. Without it Nest turns every non-RpcException into a bare
 * "Internal server error" and the caller loses e.g. `Authorization.Denied`. Apply it with
 * `@RpcController()` or `@UseFilters(RpcProblemFilter)`; it leaves other contexts alone.
 */
@Catch()
export class RpcProblemFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger(RpcProblemFilter.name);

  catch(error: unknown, host: ArgumentsHost): Observable<never> {
    if (host.getType() !== 'rpc') throw error;
    return throwError(() => rpcWireError(error, this.logger));
  }
}
