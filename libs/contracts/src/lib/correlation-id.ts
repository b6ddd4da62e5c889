/**
 * A correlation id the platform keeps as the client sent it (`X-Correlation-Id`): a sane token of
 * 1–128 characters. Anything else is replaced by a generated UUID, which fits it too, so every
 * correlation id the platform records (logs, the decision audit, the change log) matches.
 */
export const CORRELATION_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
