import { PathDispatcher } from './path-dispatcher';

const noop = () => undefined;

describe('PathDispatcher', () => {
  const dispatcher = new PathDispatcher([
    { name: 'policy-management', prefixes: ['/api/authorization'], handle: noop },
    { name: 'authz-decision', prefixes: ['/api/authorization/decisions'], handle: noop },
  ]);

  it('sends a path to the service owning the longest matching prefix', () => {
    expect(dispatcher.resolve('/api/authorization/roles?pageIndex=1')?.name).toBe('policy-management');
    expect(dispatcher.resolve('/api/authorization/decisions')?.name).toBe('authz-decision');
    expect(dispatcher.resolve('/api/authorization/decisions/batch')?.name).toBe('authz-decision');
    expect(dispatcher.resolve('/api/authorization')?.name).toBe('policy-management');
  });

  it('matches whole path segments only', () => {
    expect(dispatcher.resolve('/api/authorizationx')).toBeUndefined();
    expect(dispatcher.resolve('/api/authorization/decisionsx')?.name).toBe('policy-management');
    expect(dispatcher.resolve('/health/ready')).toBeUndefined();
  });

  it('refuses two services claiming one prefix', () => {
    expect(
      () =>
        new PathDispatcher([
          { name: 'a', prefixes: ['/x'], handle: noop },
          { name: 'b', prefixes: ['/x'], handle: noop },
        ]),
    ).toThrow(/claimed by both a and b/);
  });
});
