import { isWebhookEventType, matchesAnyWebhookPattern, matchesWebhookPattern, WEBHOOK_INTAKE_TOPICS, webhookPatternProblem } from './webhook-event-patterns';

describe('webhook event type patterns (spec §2)', () => {
  it.each([
    // pattern, event type, matches
    ['ticket.*', 'ticket.created', true],
    ['ticket.*', 'ticket.comment.added', true],
    ['ticket.*', 'tickets.created', false],
    ['ticket.*', 'chat.created', false],
    ['ticket.created', 'ticket.created', true],
    ['ticket.created', 'ticket.updated', false],
    ['ticket.created', 'ticket.created.late', false],
    ['*.created', 'ticket.created', true],
    ['*.created', 'case.created', true],
    ['*.created', 'workflow.instance.created', true],
    ['*.created', 'ticket.recreated', false],
    ['*.created', 'ticket.created.v2', false],
    ['workflow.*', 'workflow.instance.completed', true],
    ['case.*', 'case.created', true],
  ])('%s against %s: %s', (pattern, eventType, expected) => {
    expect(webhookPatternProblem(pattern)).toBeNull();
    expect(matchesWebhookPattern(pattern, eventType)).toBe(expected);
  });

  it('a subscription receives an event when any of its patterns matches', () => {
    expect(matchesAnyWebhookPattern(['chat.*', 'ticket.closed'], 'ticket.closed')).toBe(true);
    expect(matchesAnyWebhookPattern(['chat.*', 'ticket.closed'], 'ticket.created')).toBe(false);
  });

  it.each([
    ['', /empty/],
    ['*', /./],
    ['*.*', /suffix form/],
    ['ticket.*.created', /wildcard/],
    ['**.created', /wildcard|suffix/],
    ['unknown.*', /unknown module "unknown"/],
    ['payroll.paid', /unknown module "payroll"/],
    ['Ticket.Created', /lower-case/],
    ['ticket', /lower-case segments/],
    ['ticket.', /lower-case segments/],
    ['x'.repeat(201), /at most 200/],
  ])('refuses %j', (pattern, problem) => {
    expect(webhookPatternProblem(pattern)).toMatch(problem);
  });

  it('knows concrete event types of registered modules only', () => {
    expect(isWebhookEventType('billing.invoice.paid')).toBe(true);
    expect(isWebhookEventType('authorization.role.changed')).toBe(false);
    expect(isWebhookEventType('ticket.*')).toBe(false);
  });

  it('binds the intake queue to every event of each registered module', () => {
    expect(WEBHOOK_INTAKE_TOPICS).toEqual(['ticket.#', 'chat.#', 'file.#', 'billing.#', 'notification.#', 'catalog.#', 'case.#', 'workflow.#']);
  });
});
