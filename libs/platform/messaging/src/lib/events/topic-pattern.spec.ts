import { assertTopicPattern, isRoutingKey, topicMatches } from './topic-pattern';

describe('topic patterns (AMQP rules)', () => {
  it.each([
    ['authorization.#', 'authorization.feature.changed', true],
    ['authorization.#', 'authorization', true],
    ['authorization.#', 'workflow.instance.approved', false],
    ['#', 'anything.at.all', true],
    ['*.created', 'ticket.created', true],
    ['*.created', 'ticket.comment.created', false],
    ['ticket.*', 'ticket', false],
    ['#.changed', 'authorization.feature.changed', true],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.c.z', true],
    ['a.#.z', 'a.b.c', false],
    ['authorization.feature.changed', 'authorization.feature.changed', true],
    ['authorization.feature', 'authorization.feature.changed', false],
  ])('%s vs %s → %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });

  it('accepts event types as routing keys and refuses wildcards or empty words in them', () => {
    expect(isRoutingKey('authorization.user-role.assigned')).toBe(true);
    expect(isRoutingKey('ticket.*')).toBe(false);
    expect(isRoutingKey('ticket..created')).toBe(false);
    expect(isRoutingKey('')).toBe(false);
  });

  it('refuses malformed binding patterns', () => {
    expect(() => assertTopicPattern('authorization.#')).not.toThrow();
    expect(() => assertTopicPattern('authorization.#x')).toThrow(/Invalid topic pattern/);
    expect(() => assertTopicPattern('')).toThrow(/Invalid topic pattern/);
  });
});
