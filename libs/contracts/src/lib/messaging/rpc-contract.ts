import { z } from 'zod';
import type { TrustedCaller } from '../trusted-caller';
import { MessageSchema, trustedCallerSchema } from './message-schema';

/**
 * Every RPC message has one shape: the caller the asking service authenticated (never taken from
 * a body) and what it asks. The tenant a handler acts in is always `caller.tenantId`.
 */
export interface RpcMessage<TPayload> {
  caller: TrustedCaller;
  payload: TPayload;
}

/**
 * One RPC pattern, typed end to end: the client's `call(contract, message)` resolves with `TReply`,
 * the server's `@RpcHandler(contract)` method must take `TReceived` and return `TReply`, and the
 * message is checked with `schema` on receipt, before the handler runs (a wrong shape is a
 * `Validation.Failed`, never a crash). `TReceived` is what `schema` returns: usually the message
 * itself, sometimes a normalized form (authz.decide hands its handler a validated decision request).
 */
export interface RpcContract<TPayload, TReply, TReceived = RpcMessage<TPayload>> {
  readonly pattern: string;
  /** The service whose queue (`{service}.rpc`) answers the pattern. */
  readonly service: string;
  readonly schema: MessageSchema<TReceived>;
  /** Type carrier only: never set. */
  readonly types?: { payload: TPayload; reply: TReply; received: TReceived };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the widest contract, for constraints
export type AnyRpcContract = RpcContract<any, any, any>;
export type PayloadOf<C> = C extends RpcContract<infer P, unknown, unknown> ? P : never;
export type ReplyOf<C> = C extends RpcContract<unknown, infer R, unknown> ? R : never;
export type ReceivedOf<C> = C extends RpcContract<unknown, unknown, infer M> ? M : never;
export type MessageOf<C> = RpcMessage<PayloadOf<C>>;

/**
 * The message schema of a `{ caller, payload }` pattern: the caller as authenticated, the payload
 * strictly (an unknown field is refused, as on HTTP), and the `authorization` a guarded handler's
 * guard attaches before the schema runs.
 */
export function rpcMessageSchema(payload: z.ZodType): z.ZodType {
  return z.object({ caller: trustedCallerSchema, payload, authorization: z.unknown().optional() });
}

/**
 * A `{ caller, payload }` pattern whose payload is checked with a zod schema: the client sends the
 * schema's input type, the handler receives its output (defaults applied). Curried so the reply type
 * is named and the payload type inferred: `rpcContract<Reply>()({ pattern, service, payload })`.
 */
export function rpcContract<TReply>() {
  return <S extends z.ZodType>(definition: { pattern: string; service: string; payload: S }): RpcContract<z.input<S>, TReply, RpcMessage<z.output<S>>> => ({
    pattern: definition.pattern,
    service: definition.service,
    schema: rpcMessageSchema(definition.payload) as unknown as MessageSchema<RpcMessage<z.output<S>>>,
  });
}
