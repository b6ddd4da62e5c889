/**
 * The source modules a webhook subscription may listen to (specs/workflow-webhooks-mcp.md §2, the
 * registered module patterns, plus the fleet's own `case.*` and `workflow.*` events). An event type
 * is `{module}.{name}` with lower-case dot-separated segments (`ticket.created`,
 * `workflow.instance.completed`).
 */
export const WEBHOOK_SOURCE_MODULES = ['ticket', 'chat', 'file', 'billing', 'notification', 'catalog', 'case', 'workflow'] as const;
export type WebhookSourceModule = (typeof WEBHOOK_SOURCE_MODULES)[number];

const SEGMENT = '[a-z][a-z0-9-]*';
const EVENT_TYPE = new RegExp(`^${SEGMENT}(\\.${SEGMENT})+$`);
/** Longest event type or pattern accepted. */
export const MAX_EVENT_TYPE_LENGTH = 200;

export function isWebhookSourceModule(value: string): value is WebhookSourceModule {
  return (WEBHOOK_SOURCE_MODULES as readonly string[]).includes(value);
}

/** A concrete event type a webhook can carry: lower-case segments, its first one a registered module. */
export function isWebhookEventType(value: string): boolean {
  if (value.length > MAX_EVENT_TYPE_LENGTH || !EVENT_TYPE.test(value)) return false;
  return isWebhookSourceModule(value.slice(0, value.indexOf('.')));
}

/**
 * Why a subscription pattern is refused, or null when it is valid. The three forms of §2:
 * `ticket.*` (every event of a registered module, at any depth), an exact type of a registered
 * module (`ticket.created`), and the suffix form `*.created` (that last segment, any module).
 */
export function webhookPatternProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'must not be empty';
  if (pattern.length > MAX_EVENT_TYPE_LENGTH) return `must be at most ${MAX_EVENT_TYPE_LENGTH} characters`;
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(2);
    return new RegExp(`^${SEGMENT}$`).test(suffix) ? null : 'the suffix form is `*.{name}` with one lower-case segment, e.g. `*.created`';
  }
  if (pattern.endsWith('.*')) {
    const module = pattern.slice(0, -2);
    if (!new RegExp(`^${SEGMENT}$`).test(module)) return 'the module form is `{module}.*`, e.g. `ticket.*`';
    return isWebhookSourceModule(module) ? null : `unknown module "${module}" (registered: ${WEBHOOK_SOURCE_MODULES.join(', ')})`;
  }
  if (pattern.includes('*')) return 'a wildcard stands alone as the first segment (`*.created`) or the last (`ticket.*`)';
  if (!EVENT_TYPE.test(pattern)) return 'an event type is lower-case segments separated by dots, e.g. `ticket.created`';
  const module = pattern.slice(0, pattern.indexOf('.'));
  return isWebhookSourceModule(module) ? null : `unknown module "${module}" (registered: ${WEBHOOK_SOURCE_MODULES.join(', ')})`;
}

/** Whether `eventType` matches one subscription pattern (assumed valid). */
export function matchesWebhookPattern(pattern: string, eventType: string): boolean {
  if (pattern.startsWith('*.')) return eventType.endsWith(pattern.slice(1));
  if (pattern.endsWith('.*')) return eventType.startsWith(pattern.slice(0, -1));
  return pattern === eventType;
}

/** Whether any of a subscription's patterns matches `eventType`. */
export function matchesAnyWebhookPattern(patterns: readonly string[], eventType: string): boolean {
  return patterns.some((pattern) => matchesWebhookPattern(pattern, eventType));
}

/** The broker bindings of the dispatcher's durable queue: every event of every registered module. */
export const WEBHOOK_INTAKE_TOPICS: readonly string[] = WEBHOOK_SOURCE_MODULES.map((module) => `${module}.#`);
