import { Injectable, PipeTransform } from '@nestjs/common';
import { InjectConfig } from '@lp/platform/config';
import { SchemaValidationPipe } from '@lp/platform/http';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { subscriptionSchemas, ValidCreateSubscription, ValidUpdateSubscription } from './dto/subscription.schemas';

/** Production (NODE_ENV=production) takes only https: callback URLs; the rules are otherwise the same. */
function schemasFor(platform: PlatformConfig) {
  return subscriptionSchemas({ requireHttps: platform.NODE_ENV === 'production' });
}

/** Body of POST /api/webhooks/subscriptions, checked by `subscriptionSchemas(...).create`. */
@Injectable()
export class CreateSubscriptionPipe implements PipeTransform<unknown, ValidCreateSubscription> {
  private readonly pipe: SchemaValidationPipe<ValidCreateSubscription>;

  constructor(@InjectConfig(platformConfig) platform: PlatformConfig) {
    this.pipe = new SchemaValidationPipe(schemasFor(platform).create);
  }

  transform(value: unknown): ValidCreateSubscription {
    return this.pipe.transform(value);
  }
}

/** Body of PATCH /api/webhooks/subscriptions/{id}, checked by `subscriptionSchemas(...).update`. */
@Injectable()
export class UpdateSubscriptionPipe implements PipeTransform<unknown, ValidUpdateSubscription> {
  private readonly pipe: SchemaValidationPipe<ValidUpdateSubscription>;

  constructor(@InjectConfig(platformConfig) platform: PlatformConfig) {
    this.pipe = new SchemaValidationPipe(schemasFor(platform).update);
  }

  transform(value: unknown): ValidUpdateSubscription {
    return this.pipe.transform(value);
  }
}
