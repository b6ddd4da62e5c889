import { DomainError } from '@lp/contracts';
import { requireUserId, requireUuid } from './path-params';
import { isProtectedRole } from './protected-role';
import { ROLE_NAME_PATTERN } from './dto/save-role.dto';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return [(e as DomainError).code, (e as DomainError).status];
  }
  return undefined;
};

describe('path parameters', () => {
  it('requireUuid: a malformed id is 404 NotFound, like an unknown one; a valid one is normalized to lower case', () => {
    expect(requireUuid('6F1C2A7E-3D4B-5C8E-9A0F-1B2C3D4E5F60', 'Role')).toBe('6f1c2a7e-3d4b-5c8e-9a0f-1b2c3d4e5f60');
    for (const bad of ['', 'x', '6f1c2a7e3d4b5c8e9a0f1b2c3d4e5f60', "6f1c2a7e-3d4b-5c8e-9a0f-1b2c3d4e5f60' OR 1=1"]) {
      expect(codeOf(() => requireUuid(bad, 'Role'))).toEqual(['NotFound', 404]);
    }
  });

  it('requireUserId: 1–255 characters without control characters, else 400', () => {
    expect(requireUserId('a')).toBe('a');
    expect(requireUserId('u'.repeat(255))).toHaveLength(255);
    expect(requireUserId('user@example.com|ü 1')).toBe('user@example.com|ü 1');
    for (const bad of ['', 'u'.repeat(256), 'a\u0000b', 'a\nb', 'a\u007fb', 'a\u0085b']) {
      expect(codeOf(() => requireUserId(bad))).toEqual(['Validation.Failed', 400]);
    }
  });

  it('protects platform-admin in tenant default only, tenant-admin in every other tenant', () => {
    expect(isProtectedRole('default', 'platform-admin')).toBe(true);
    expect(isProtectedRole('acme', 'platform-admin')).toBe(false);
    expect(isProtectedRole('default', 'platform-admin2')).toBe(false);
    expect(isProtectedRole('acme', 'tenant-admin')).toBe(true);
    expect(isProtectedRole('default', 'tenant-admin')).toBe(false);
    expect(isProtectedRole('acme', 'Tenant-Admin')).toBe(false);
  });

  it('role names: letters or digits first, then letters, digits, spaces, ".", "_", "-"', () => {
    for (const ok of ['clerk', 'Case Clerk', 'a.b_c-d', 'Sachbearbeiter Ü', '1st-line']) expect(ROLE_NAME_PATTERN.test(ok)).toBe(true);
    for (const bad of ['-x', ' x', 'a/b', 'a:b', 'a,b', 'a\tb', '']) expect(ROLE_NAME_PATTERN.test(bad)).toBe(false);
  });
});
