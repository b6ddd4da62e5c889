import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { DataScope, DecisionReply, TrustedCaller } from '@lp/contracts';

/** What the guard leaves on a permitted request for the handler. */
export interface AuthorizationContext {
  decision: DecisionReply;
  dataScope: DataScope;
}

export interface AuthorizedRequest {
  caller?: TrustedCaller;
  authorization?: AuthorizationContext;
}

/** RPC messages to guarded handlers carry the trusted caller established by the calling service. */
export interface AuthorizedRpcMessage<TPayload = unknown> {
  caller: TrustedCaller;
  payload: TPayload;
}

function authorizationOf(context: ExecutionContext): AuthorizationContext | undefined {
  if (context.getType() === 'http') return context.switchToHttp().getRequest<AuthorizedRequest>().authorization;
  if (context.getType() === 'rpc') return (context.switchToRpc().getData() as AuthorizedRequest).authorization;
  return undefined;
}

/** The DataScope resolved for this permitted request. */
export const CurrentDataScope = createParamDecorator((_: unknown, context: ExecutionContext) => authorizationOf(context)?.dataScope);

/** The full decision (id, reasons) for this permitted request. */
export const CurrentDecision = createParamDecorator((_: unknown, context: ExecutionContext) => authorizationOf(context)?.decision);
