import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useSession } from '../../api/session';
import { ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';
import { DeadLetterDetail } from './DeadLetterDetail';
import { DeadLetterList } from './DeadLetterList';
import { WEBHOOK_PERMISSIONS } from './permissions';
import { SubscriptionCreate } from './SubscriptionCreate';
import { SubscriptionDetail } from './SubscriptionDetail';
import { SubscriptionList } from './SubscriptionList';
import { TabItem, Tabs } from './Tabs';
import './webhooks.css';

const SUBSCRIPTIONS: TabItem = { key: 'subscriptions', label: 'Subscriptions' };
const DEAD_LETTERS: TabItem = { key: 'dead-letters', label: 'Dead letters' };

/**
 * Webhooks (bar: the Svix app portal): subscriptions with their signing secrets and delivery logs,
 * and the dead letters with their replay. Pages have addresses under `/console/webhooks/`:
 * `new`, `subscriptions/{id}`, `dead-letters`, `dead-letters/{id}`; filters and pages are in the
 * query string, so the back button and a shared link show the same thing.
 */
function WebhooksScreen() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const canSubscriptions = session.canAny([WEBHOOK_PERMISSIONS.view]);
  const canDeadLetters = session.canAny([WEBHOOK_PERMISSIONS.deadLetterView]);
  // Both tabs for whoever holds neither (opened by address): the API's 403 then says why.
  const tabs = [...(canSubscriptions || !canDeadLetters ? [SUBSCRIPTIONS] : []), ...(canDeadLetters || !canSubscriptions ? [DEAD_LETTERS] : [])];
  const selected = location.pathname.startsWith('/webhooks/dead-letters') ? DEAD_LETTERS.key : SUBSCRIPTIONS.key;

  return (
    <section className="webhooks">
      <ScreenTitle>Webhooks</ScreenTitle>
      <Tabs
        label="Webhooks"
        items={tabs}
        selected={selected}
        onSelect={(key) => void navigate(key === DEAD_LETTERS.key ? '/webhooks/dead-letters' : '/webhooks')}
      >
        <Routes>
          <Route index element={!canSubscriptions && canDeadLetters ? <Navigate to="/webhooks/dead-letters" replace /> : <SubscriptionList />} />
          <Route path="new" element={<SubscriptionCreate />} />
          <Route path="subscriptions/:id" element={<SubscriptionDetail />} />
          <Route path="dead-letters" element={<DeadLetterList />} />
          <Route path="dead-letters/:id" element={<DeadLetterDetail />} />
          <Route path="*" element={<p>No such webhooks page.</p>} />
        </Routes>
      </Tabs>
    </section>
  );
}

export const webhooksScreen: ScreenDefinition = {
  path: 'webhooks',
  label: 'Webhooks',
  needs: [WEBHOOK_PERMISSIONS.view, WEBHOOK_PERMISSIONS.deadLetterView],
  component: WebhooksScreen,
};
