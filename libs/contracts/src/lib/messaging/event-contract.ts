import type { z } from 'zod';

/**
 * One integration event type, typed end to end: publishers build `{ type, payload }` through
 * `event(contract, payload)` (a payload of the wrong shape is a compile error), consumers read the
 * payload through `schema` (`safeParse` on receipt: an event from an older or broken publisher is
 * seen as such, not trusted). `type` is also the routing key on `integration.events`.
 */
export interface EventContract<TPayload, TType extends string = string> {
  readonly type: TType;
  readonly version: number;
  readonly schema: z.ZodType<TPayload>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the widest contract, for constraints
export type AnyEventContract = EventContract<any, string>;
export type EventPayloadOf<C> = C extends EventContract<infer P, string> ? P : never;

/** An event to publish: its type and a payload of its contract's shape. */
export interface OutgoingEvent<TPayload = unknown> {
  type: string;
  payload: TPayload;
}

export function eventContract<const TType extends string, TPayload>(type: TType, schema: z.ZodType<TPayload>, version = 1): EventContract<TPayload, TType> {
  return { type, version, schema };
}

/** The event to publish, typed by its contract. */
export function event<C extends AnyEventContract>(contract: C, payload: EventPayloadOf<C>): OutgoingEvent<EventPayloadOf<C>> & { type: C['type'] } {
  return { type: contract.type, payload };
}
