/**
 * The decision core never reads the wall clock itself: grant expiry is compared with an injected
 * clock so tests, the conformance corpus and the benchmark can pin "now".
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
