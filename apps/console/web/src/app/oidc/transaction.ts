/**
 * The one sign-in this tab has started: the `state` the answer must carry back and the PKCE
 * `code_verifier` the code is redeemed with. Kept in sessionStorage, so it survives the trip to the
 * issuer and back but belongs to this tab only; taken (read and removed) when the answer arrives,
 * so an answer is used at most once.
 */
export interface SignInTransaction {
  issuer: string;
  clientId: string;
  state: string;
  codeVerifier: string;
  /** The console path (below `/console`) the user was on, where the sign-in ends. */
  returnTo: string;
}

const TRANSACTION_KEY = 'lp.console.oidc';

export function keepTransaction(transaction: SignInTransaction): void {
  sessionStorage.setItem(TRANSACTION_KEY, JSON.stringify(transaction));
}

export function takeTransaction(): SignInTransaction | undefined {
  const stored = sessionStorage.getItem(TRANSACTION_KEY);
  sessionStorage.removeItem(TRANSACTION_KEY);
  if (!stored) return undefined;
  try {
    const value = JSON.parse(stored) as Partial<SignInTransaction>;
    const fields = [value.issuer, value.clientId, value.state, value.codeVerifier, value.returnTo];
    return fields.every((field) => typeof field === 'string' && field.length > 0) ? (value as SignInTransaction) : undefined;
  } catch {
    return undefined;
  }
}

/** Only a path of this console; never the callback itself, never another site (`//host`). */
export function safeReturnPath(path: string): string {
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\') || path.startsWith('/oidc/callback')) return '/';
  return path;
}
