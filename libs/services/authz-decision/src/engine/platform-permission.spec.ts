import { AuthorizationAction, PERMISSION_CATALOG, PLATFORM_FEATURES, PLATFORM_TENANT } from '@lp/contracts';
import { DecisionEngine } from './decision-engine';
import { application, delegated, request, user } from '../../test/decision.fixtures';
import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';

const platformPermissions = PERMISSION_CATALOG.filter((p) => p.level === 'platform');

describe('platform-level permissions are decided only for the platform tenant', () => {
  it('the catalog marks the global feature default, the tenant lifecycle, the tenant list, the fleet jobs, the fleet diagnostics, the legacy import and the forced workflow definition deletion as platform-level', () => {
    expect(platformPermissions.map((p) => p.code).sort()).toEqual([
      'authorization.feature-default.update',
      'authorization.tenant.create',
      'authorization.tenant.update',
      'operations.diagnostics.view',
      'operations.jobs.manage',
      'operations.jobs.view',
      'operations.tenants.manage',
      'operations.tenants.view',
      'workflow.legacy-import.create',
      'workflow.management.delete',
    ]);
  });

  describe.each(platformPermissions.map((p) => [p.code, p] as const))('%s', (code, permission) => {
    const resource = { module: permission.module, resourceType: permission.resource };
    const action = permission.action as AuthorizationAction;

    function engineWith(tenantId: string) {
      const facts = new InMemoryPolicyFacts();
      for (const feature of PLATFORM_FEATURES) facts.setFeatureDefault(feature.code, true);
      // The tenant's role holds the code anyway (granted before the rule, or written around the API).
      facts.defineRole(tenantId, 'tenant-admin', 'tenant', [code]);
      facts.bindRole(tenantId, 'ann', 'tenant-admin');
      facts.delegate(tenantId, 'ann', { grantId: 'g1', actor: 'bob', permissions: [code], expiresAt: new Date(Date.now() + 3_600_000) });
      return new DecisionEngine({ facts });
    }

    it('is denied to a user, an application and a delegated caller of another tenant, with the reason in the trace', async () => {
      const engine = engineWith('acme');
      for (const caller of [
        user('ann', { tenantId: 'acme' }),
        application('sync', [code], { tenantId: 'acme' }),
        delegated('ann', 'bob', { tenantId: 'acme' }),
      ]) {
        const result = await engine.decide(request(caller, action, resource));
        expect(result.outcome).toBe('Deny');
        expect(result.permitted).toBe(false);
        expect(result.evaluations.find((e) => e.evaluator === 'RBAC')).toEqual(
          expect.objectContaining({ verdict: 'Deny', reason: expect.stringContaining('PlatformPermissionOutsidePlatformTenant') }),
        );
      }
    });

    it('is permitted to a platform administrator of the platform tenant', async () => {
      const engine = engineWith(PLATFORM_TENANT);
      const result = await engine.decide(request(user('ann', { tenantId: PLATFORM_TENANT }), action, resource));
      expect(result.outcome).toBe('Permit');
    });
  });
});
