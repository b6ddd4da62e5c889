import { ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';

function WebhooksScreen() {
  return <ScreenTitle>Webhooks</ScreenTitle>;
}

export const webhooksScreen: ScreenDefinition = { path: 'webhooks', label: 'Webhooks', needs: ['webhooks.subscription.view'], component: WebhooksScreen };
