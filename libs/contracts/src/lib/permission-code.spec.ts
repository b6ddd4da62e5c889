import { AuthorizationAction, AUTHORIZATION_ACTIONS } from './authorization-action';
import { parsePermissionCode, permissionCode } from './permission-code';

describe('permission codes', () => {
  it('derives {module}.{resource}.{action} in lower case', () => {
    expect(permissionCode('authorization', 'user-role', AuthorizationAction.Assign)).toBe('authorization.user-role.assign');
    expect(permissionCode('Operations', 'Jobs', AuthorizationAction.Manage)).toBe('operations.jobs.manage');
  });

  it('round-trips every action', () => {
    for (const action of AUTHORIZATION_ACTIONS) {
      expect(parsePermissionCode(permissionCode('cases', 'case', action))).toEqual({ module: 'cases', resource: 'case', action });
    }
  });

  it('rejects malformed segments and unknown actions', () => {
    expect(() => permissionCode('bad.module', 'role', AuthorizationAction.View)).toThrow(/module/);
    expect(() => permissionCode('authorization', '', AuthorizationAction.View)).toThrow(/resource/);
    expect(() => permissionCode('authorization', 'role', 'Launch' as AuthorizationAction)).toThrow(/action/);
    expect(parsePermissionCode('authorization.role')).toBeNull();
    expect(parsePermissionCode('authorization.role.launch')).toBeNull();
    expect(parsePermissionCode('Authorization.role.view')).toBeNull();
  });
});
