import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useSession } from '../../api/session';
import { ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';
import { AbacRulesTab } from './abac-rules-tab';
import { AccessTab, AccessTabs } from './access-tabs';
import { FeaturesTab } from './features-tab';
import { RoleDetail } from './role-detail';
import { RolesTab } from './roles-tab';
import './access.css';

/** The tabs and the view permission each one's list needs (the first the user holds opens by default). */
const TABS: ReadonlyArray<AccessTab & { view: string }> = [
  { path: 'roles', label: 'Roles', view: 'authorization.role.view' },
  { path: 'features', label: 'Features', view: 'authorization.feature.view' },
  { path: 'abac-rules', label: 'ABAC rules', view: 'authorization.abac-rule.view' },
];

/**
 * Access: roles (with their permissions and members), the tenant's features and its ABAC rules,
 * all through `/api/authorization` as the signed-in user. Every tab is shown to whoever opens the
 * screen; the API answers 403 where the user may not look, and the tab shows it.
 */
function AccessScreen() {
  const { canAny } = useSession();
  const location = useLocation();
  const current = /^\/access\/([^/]+)/.exec(location.pathname)?.[1];
  const selected = TABS.find((tab) => tab.path === current)?.path;
  const landing = TABS.find((tab) => canAny([tab.view]))?.path ?? 'roles';

  return (
    <section className="access">
      <ScreenTitle>Access</ScreenTitle>
      {selected ? (
        <AccessTabs tabs={TABS} selected={selected}>
          <Routes>
            <Route path="roles" element={<RolesTab />} />
            <Route path="roles/:roleId" element={<RoleDetail />} />
            <Route path="features" element={<FeaturesTab />} />
            <Route path="abac-rules" element={<AbacRulesTab />} />
          </Routes>
        </AccessTabs>
      ) : (
        <Navigate to={`/access/${landing}`} replace />
      )}
    </section>
  );
}

export const accessScreen: ScreenDefinition = {
  path: 'access',
  label: 'Access',
  needs: [
    'authorization.role.view',
    'authorization.role-permission.view',
    'authorization.user-role.view',
    'authorization.permission.view',
    'authorization.feature.view',
    'authorization.abac-rule.view',
  ],
  component: AccessScreen,
};
