import { ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';

function AuditScreen() {
  return <ScreenTitle>Audit</ScreenTitle>;
}

export const auditScreen: ScreenDefinition = { path: 'audit', label: 'Audit', needs: ['authorization.permission-audit.view'], component: AuditScreen };
