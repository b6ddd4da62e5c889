import { describe, expect, it } from '@jest/globals';
import { EMPTY_QUESTION, questionFromParams, simulationBody, whyParams } from './question';

const base = { ...EMPTY_QUESTION, subject: 'reports-app', module: 'cases', resourceType: 'case', action: 'View' };

describe('the Why? question with a caller kind', () => {
  it('asks for a user without any caller field, and keeps links as they were', () => {
    expect(simulationBody(base)).toEqual({ subject: 'reports-app', request: { resource: { module: 'cases', resourceType: 'case' }, action: 'View' } });
    expect(whyParams(base).toString()).toBe('subject=reports-app&action=View&module=cases&resourceType=case');
  });

  it("sends an application's scopes as a list (space- or comma-separated) and its client id", () => {
    const question = { ...base, callerKind: 'application', scopes: ' cases.case.view,  cases.case.update ', clientId: 'reports' };
    expect(simulationBody(question)).toMatchObject({
      callerKind: 'application',
      scopes: ['cases.case.view', 'cases.case.update'],
      clientId: 'reports',
    });
    const params = whyParams(question);
    expect(questionFromParams(params)).toEqual({ ...question, scopes: question.scopes.trim() });
  });

  it("sends a delegated caller's actor and grant id, and never another kind's fields", () => {
    const question = { ...base, subject: 'alice', callerKind: 'delegated', actor: 'bob', grantId: 'g-1', scopes: 'cases.case.view', clientId: 'x' };
    const body = simulationBody(question);
    expect(body).toMatchObject({ callerKind: 'delegated', actor: 'bob', grantId: 'g-1' });
    expect(body).not.toHaveProperty('scopes');
    expect(body).not.toHaveProperty('clientId');
    const params = whyParams(question);
    expect(params.has('scopes')).toBe(false);
    expect(params.get('actor')).toBe('bob');
    // A user question drops the delegated fields it was switched away from.
    expect(simulationBody({ ...question, callerKind: '' })).toEqual(simulationBody({ ...base, subject: 'alice' }));
  });
});
