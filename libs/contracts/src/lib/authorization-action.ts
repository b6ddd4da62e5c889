/** The actions of spec §2. String values are what tokens, codes and payloads carry. */
export enum AuthorizationAction {
  View = 'View',
  Create = 'Create',
  Update = 'Update',
  Delete = 'Delete',
  Assign = 'Assign',
  Revoke = 'Revoke',
  Grant = 'Grant',
  Approve = 'Approve',
  Reject = 'Reject',
  Manage = 'Manage',
}

export const AUTHORIZATION_ACTIONS: readonly AuthorizationAction[] = Object.values(AuthorizationAction);

export function isAuthorizationAction(value: unknown): value is AuthorizationAction {
  return typeof value === 'string' && (AUTHORIZATION_ACTIONS as readonly string[]).includes(value);
}
