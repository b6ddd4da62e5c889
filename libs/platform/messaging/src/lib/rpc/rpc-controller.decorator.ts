import { applyDecorators, Controller, UseFilters } from '@nestjs/common';
import { RpcProblemFilter } from './rpc-problem.filter';

/**
 * A controller of `@MessagePattern` handlers whose failures reach the caller as problem objects
 * with their domain code (RpcProblemFilter). Keep RPC handlers in their own controllers: the
 * filter is for the RPC context only.
 */
export function RpcController(): ClassDecorator {
  return applyDecorators(Controller(), UseFilters(RpcProblemFilter));
}
