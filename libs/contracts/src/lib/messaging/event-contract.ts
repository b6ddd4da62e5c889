import type { z } from 'zod';
import type { EventEnvelope } from '../event-envelope';

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

/**
 * Events a consumer takes as one: the topic pattern over their types and their contracts, declared
 * once next to the events. Consumers subscribe to the family (`EventBus.subscribeTo`), never to a
 * pattern string of their own.
 */
export interface EventFamily<C extends Readonly<Record<string, AnyEventContract>> = Readonly<Record<string, AnyEventContract>>> {
  readonly pattern: string;
  readonly contracts: C;
}

export function eventFamily<const C extends Readonly<Record<string, AnyEventContract>>>(pattern: string, contracts: C): EventFamily<C> {
  return { pattern, contracts };
}

type ContractsOf<F> = F extends EventFamily<infer C> ? C[keyof C] : never;

/** An event of a family as its consumer receives it, checked against its contract on receipt. */
export interface ReceivedEvent<C extends AnyEventContract = AnyEventContract> {
  readonly envelope: EventEnvelope;
  /** The contract of the envelope's type; undefined for a type of the family that no contract declares (a newer publisher). */
  readonly contract: C | undefined;
  /** The payload as its contract reads it; undefined when there is no contract or the payload does not match it. */
  readonly payload: EventPayloadOf<C> | undefined;
}

export type ReceivedEventOf<F> = ReceivedEvent<ContractsOf<F>>;

/** Reads an envelope of `family`: finds its contract by type and checks the payload with the contract's schema. */
export function receiveEvent<F extends EventFamily>(family: F, envelope: EventEnvelope): ReceivedEventOf<F> {
  const contract = Object.values(family.contracts).find((c) => c.type === envelope.eventType) as ContractsOf<F> | undefined;
  const parsed = contract?.schema.safeParse(envelope.payload);
  return { envelope, contract, payload: parsed?.success ? parsed.data : undefined } as ReceivedEventOf<F>;
}
