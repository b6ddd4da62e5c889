import { Injectable } from '@nestjs/common';
import type { WebhookSubscriptionEntity } from '../store';
import { SubscriptionSecrets } from '../subscriptions/subscription-secrets';
import { SecretVault } from './secret-vault';

/** `SubscriptionSecrets` over the vault: the row's ciphertexts opened for the moment of signing. */
@Injectable()
export class VaultSubscriptionSecrets extends SubscriptionSecrets {
  constructor(private readonly vault: SecretVault) {
    super();
  }

  signingSecretsOf(subscription: WebhookSubscriptionEntity, now: Date): string[] {
    const owner = { tenantId: subscription.tenantId, subscriptionId: subscription.id };
    const secrets = [this.vault.open({ ciphertext: subscription.secretCiphertext, keyVersion: subscription.secretKeyVersion }, owner)];
    const { previousSecretCiphertext, previousSecretKeyVersion, previousSecretExpiresAt } = subscription;
    if (previousSecretCiphertext !== null && previousSecretKeyVersion !== null && previousSecretExpiresAt !== null && previousSecretExpiresAt > now) {
      secrets.push(this.vault.open({ ciphertext: previousSecretCiphertext, keyVersion: previousSecretKeyVersion }, owner));
    }
    return secrets;
  }
}
