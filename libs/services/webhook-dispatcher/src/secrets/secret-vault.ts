import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SecretKeyRing } from './secret-key-ring';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The row a secret belongs to: bound as associated data, so a ciphertext copied to another row does not decrypt. */
export interface SecretOwner {
  tenantId: string;
  subscriptionId: string;
}

export interface SealedSecret {
  /** base64 of IV (12 bytes) ‖ GCM tag (16 bytes) ‖ ciphertext. */
  ciphertext: string;
  keyVersion: number;
}

/**
 * Encrypts subscription signing secrets at rest (AES-256-GCM, a random IV per secret, the owning
 * tenant and subscription as associated data) under the current key, and decrypts under whichever
 * configured key version sealed them. Never logs a secret or a key.
 */
export class SecretVault {
  constructor(private readonly keys: SecretKeyRing) {}

  get currentKeyVersion(): number {
    return this.keys.current.version;
  }

  seal(secret: string, owner: SecretOwner): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.keys.current.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(owner));
    const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return { ciphertext: Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64'), keyVersion: this.keys.current.version };
  }

  /** Throws when the key version is not configured, or the ciphertext was altered or belongs to another row. */
  open(sealed: SealedSecret, owner: SecretOwner): string {
    const key = this.keys.byVersion.get(sealed.keyVersion);
    if (!key) {
      throw new Error(
        `the secret of subscription ${owner.subscriptionId} is sealed under key v${sealed.keyVersion}, which neither WEBHOOK_SECRET_KEY nor WEBHOOK_SECRET_KEYS_PREVIOUS holds`,
      );
    }
    const raw = Buffer.from(sealed.ciphertext, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error(`the secret of subscription ${owner.subscriptionId} is not a sealed secret`);
    const decipher = createDecipheriv(ALGORITHM, key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(owner));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      // GCM's own message ("Unsupported state or unable to authenticate data") says nothing useful.
      throw new Error(`the secret of subscription ${owner.subscriptionId} does not decrypt under key v${sealed.keyVersion} for this row`);
    }
  }
}

/** JSON keeps the two parts apart whatever characters a tenant id holds. */
function associatedData(owner: SecretOwner): Buffer {
  return Buffer.from(JSON.stringify(['webhooks.subscription.secret', owner.tenantId, owner.subscriptionId]), 'utf8');
}
