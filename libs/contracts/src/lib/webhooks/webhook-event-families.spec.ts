import { WEBHOOK_EVENT_FAMILIES } from './webhook-event-families';
import { isWebhookEventType, matchesWebhookPattern, WEBHOOK_SOURCE_MODULES, webhookPatternProblem } from './webhook-event-patterns';

describe('WEBHOOK_EVENT_FAMILIES', () => {
  it('describes every source module once, in order, each by a pattern a subscription may name', () => {
    expect(WEBHOOK_EVENT_FAMILIES.map((f) => f.module)).toEqual([...WEBHOOK_SOURCE_MODULES]);
    for (const family of WEBHOOK_EVENT_FAMILIES) {
      expect(family.pattern).toBe(`${family.module}.*`);
      expect(webhookPatternProblem(family.pattern)).toBeNull();
      expect(family.source).not.toBe('');
    }
  });

  it('lists the fleet’s own event types under their family, each one a subscription receives by the family pattern', () => {
    const known = Object.fromEntries(WEBHOOK_EVENT_FAMILIES.map((f) => [f.module, f.knownEventTypes]));
    expect(known['case']).toEqual(['case.created']);
    expect(known['workflow']).toEqual(expect.arrayContaining(['workflow.instance.completed', 'workflow.task.created', 'workflow.definition.published']));
    for (const family of WEBHOOK_EVENT_FAMILIES) {
      expect(family.knownEventTypes).toEqual([...new Set(family.knownEventTypes)].sort());
      for (const type of family.knownEventTypes) {
        expect(isWebhookEventType(type)).toBe(true);
        expect(matchesWebhookPattern(family.pattern, type)).toBe(true);
      }
    }
  });
});
