import { Payload } from '@nestjs/microservices';
import { AuthorizationAction, Page, ReceivedOf, WebhookSubscriptionView, WebhooksRpc } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { SUBSCRIPTION_RESOURCE } from './subscriptions.controller';
import { SubscriptionsService } from './subscriptions.service';

/** `webhooks.subscriptions.list` (the MCP tool `list_webhook_subscriptions`): the route's permission and service method. */
@RpcController()
export class SubscriptionsRpcController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @RpcHandler(WebhooksRpc.listSubscriptions)
  @Authorize({ ...SUBSCRIPTION_RESOURCE, action: AuthorizationAction.View })
  list(@Payload() message: ReceivedOf<typeof WebhooksRpc.listSubscriptions>): Promise<Page<WebhookSubscriptionView>> {
    const { pageIndex, pageSize, isActive } = message.payload;
    return this.subscriptions.list(message.caller, { isActive }, { pageIndex, pageSize });
  }
}
