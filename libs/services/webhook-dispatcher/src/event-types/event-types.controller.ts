import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, WEBHOOK_EVENT_FAMILIES } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { EventTypeFamilyList } from './dto/event-type-family.response';

const LIST: EventTypeFamilyList = {
  items: WEBHOOK_EVENT_FAMILIES.map((family) => ({ ...family, knownEventTypes: [...family.knownEventTypes] })),
  patternForms: ['{module}.*', '{module}.{name}', '*.{name}'],
};

/**
 * The event type families a subscription may name (docs/subscriptions.md, Event types): what the
 * subscription routes validate patterns against, so a client never hard-codes the module list.
 */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('api/webhooks/event-types')
export class EventTypesController {
  @Get()
  // Read by whoever reads or writes subscriptions; the list is the platform's, the same for every tenant.
  @Authorize({ module: 'webhooks', resource: 'subscription', action: AuthorizationAction.View })
  @ApiOkResponse({ type: EventTypeFamilyList, description: 'Every family, in a fixed order (not paged: one per source module).' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied' })
  list(): EventTypeFamilyList {
    return LIST;
  }
}
