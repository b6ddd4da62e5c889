/**
 * The Why? screen's question and its proposed changes, as the URL query string holds them, so that a
 * link (from the Audit screen, a ticket, a chat) opens the same question with its answer.
 */

/** The catalog's capitalised actions (`AuthorizationAction` in the contracts). */
export const ACTIONS = ['View', 'Create', 'Update', 'Delete', 'Assign', 'Revoke', 'Grant', 'Approve', 'Reject', 'Manage'] as const;

/** Who is asked about (the API's `callerKind`): '' is a user, the default, left out of links. */
export const CALLER_KINDS = ['', 'application', 'delegated'] as const;

/**
 * What the simulator is asked: may `subject` of the caller's tenant do `action` on the resource? The
 * subject is a user, an application (its client id; `scopes` its token's, space-separated), or the
 * user someone acts for (`actor`, and the delegation `grantId` the token would name).
 */
export interface Question {
  subject: string;
  callerKind: string;
  actor: string;
  grantId: string;
  scopes: string;
  clientId: string;
  action: string;
  module: string;
  resourceType: string;
  resourceId: string;
  /** Resource facts a real request loads server-side; a simulation states them. */
  status: string;
  amount: string;
  sensitivity: string;
  owner: string;
  officeId: string;
}

export const FACT_FIELDS = ['status', 'amount', 'sensitivity', 'owner', 'officeId'] as const;
/** The caller fields each kind has; the API refuses the others by name, so the others are never sent. */
export const CALLER_FIELDS = { '': [], application: ['scopes', 'clientId'], delegated: ['actor', 'grantId'] } as const satisfies Record<
  (typeof CALLER_KINDS)[number],
  ReadonlyArray<keyof Question>
>;
const QUESTION_FIELDS = [
  'subject',
  'callerKind',
  'actor',
  'grantId',
  'scopes',
  'clientId',
  'action',
  'module',
  'resourceType',
  'resourceId',
  ...FACT_FIELDS,
] as const;

export const EMPTY_QUESTION: Question = {
  subject: '',
  callerKind: '',
  actor: '',
  grantId: '',
  scopes: '',
  clientId: '',
  action: 'View',
  module: '',
  resourceType: '',
  resourceId: '',
  status: '',
  amount: '',
  sensitivity: '',
  owner: '',
  officeId: '',
};

export interface RoleBinding {
  subject: string;
  roleName: string;
}
export interface RolePermission {
  roleName: string;
  permissionCode: string;
}
export interface FeatureOverride {
  code: string;
  enabled: boolean;
}

/** The API's policy overlay: changes applied on top of the stored policy for one answer, never saved. */
export interface PolicyOverlay {
  addRoleBindings?: RoleBinding[];
  removeRoleBindings?: RoleBinding[];
  addRolePermissions?: RolePermission[];
  removeRolePermissions?: RolePermission[];
  abacRules?: { add?: unknown[]; remove?: string[] };
  features?: FeatureOverride[];
}

/** The question, complete enough to ask (the API checks the rest and answers field by field). */
export function isAskable(question: Question): boolean {
  return (
    question.subject.trim() !== '' &&
    question.action !== '' &&
    question.module.trim() !== '' &&
    question.resourceType.trim() !== '' &&
    (question.callerKind !== 'delegated' || question.actor.trim() !== '')
  );
}

/** The caller fields of the question's kind (an unknown kind has none: the API names it). */
function callerFieldsOf(question: Question): ReadonlyArray<keyof Question> {
  return (CALLER_FIELDS as Record<string, ReadonlyArray<keyof Question> | undefined>)[question.callerKind] ?? [];
}

export function questionFromParams(params: URLSearchParams): Question {
  const question = { ...EMPTY_QUESTION };
  for (const field of QUESTION_FIELDS) question[field] = params.get(field) ?? EMPTY_QUESTION[field];
  return question;
}

export interface ParsedOverlay {
  overlay: PolicyOverlay;
  /** The `overlay` parameter was there but is not a JSON object (a mangled link). */
  invalid: boolean;
}

export function overlayFromParams(params: URLSearchParams): ParsedOverlay {
  const text = params.get('overlay');
  if (!text) return { overlay: {}, invalid: false };
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { overlay: value as PolicyOverlay, invalid: false };
  } catch {
    // fall through: shown as a notice, and the question is asked without changes
  }
  return { overlay: {}, invalid: true };
}

/** The query string of a question (empty fields left out), with the overlay when it has changes. */
export function whyParams(question: Question, overlay: PolicyOverlay = {}): URLSearchParams {
  const params = new URLSearchParams();
  const callerFields = callerFieldsOf(question);
  for (const field of QUESTION_FIELDS) {
    // Another kind's caller fields stay out of the link, as they stay out of the question.
    if ((['actor', 'grantId', 'scopes', 'clientId'] as const).some((f) => f === field) && !callerFields.includes(field)) continue;
    const value = question[field].trim();
    if (value) params.set(field, value);
  }
  const compact = compactOverlay(overlay);
  if (overlayIsEmpty(compact)) params.delete('overlay');
  else params.set('overlay', JSON.stringify(compact));
  return params;
}

/**
 * A link to the Why? screen asking `question`, with proposed changes if any; from the Audit screen's
 * "Explain now", with the audited decision's id, shown as recorded beside today's answer.
 */
export function whyLink(question: Partial<Question>, overlay: PolicyOverlay = {}, decisionId?: string): string {
  const params = whyParams({ ...EMPTY_QUESTION, ...question }, overlay);
  if (decisionId) params.set(DECISION_PARAM, decisionId);
  return `/why?${params.toString()}`;
}

/** The audited decision a question came from (`?decision=`): kept while only the proposed changes change. */
export const DECISION_PARAM = 'decision';

/** The evaluate route's body: `{ subject, callerKind?, scopes?, clientId?, actor?, grantId?, request: { resource, action }, overlay? }`. */
export function simulationBody(question: Question, overlay?: PolicyOverlay) {
  const resource: Record<string, string | number> = { module: question.module.trim(), resourceType: question.resourceType.trim() };
  for (const field of ['resourceId', 'status', 'sensitivity', 'owner', 'officeId'] as const) {
    const value = question[field].trim();
    if (value) resource[field] = value;
  }
  const amount = question.amount.trim();
  // A number when it is one; otherwise the text goes as it is and the API says what is wrong with it.
  if (amount) resource.amount = Number.isFinite(Number(amount)) ? Number(amount) : amount;
  const caller: Record<string, string | string[]> = question.callerKind ? { callerKind: question.callerKind } : {};
  for (const field of callerFieldsOf(question)) {
    const value = question[field].trim();
    if (!value) continue;
    // Scopes as a token carries them: one space-separated string (RFC 6749 §3.3), commas allowed too.
    caller[field] = field === 'scopes' ? value.split(/[\s,]+/).filter(Boolean) : value;
  }
  return { subject: question.subject.trim(), ...caller, request: { resource, action: question.action }, ...(overlay ? { overlay } : {}) };
}

/**
 * The overlay without its empty lists (what goes into the URL and to the API). Keys the console does
 * not know are kept: the API refuses them by name, which beats dropping a typo without a word.
 */
export function compactOverlay(overlay: PolicyOverlay): PolicyOverlay {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(overlay)) {
    if (Array.isArray(value) && value.length === 0) continue;
    if (key === 'abacRules' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const rules = compactOverlay(value as PolicyOverlay) as Record<string, unknown>;
      if (Object.keys(rules).length > 0) result[key] = rules;
      continue;
    }
    if (value !== undefined) result[key] = value;
  }
  return result as PolicyOverlay;
}

export function overlayIsEmpty(overlay: PolicyOverlay): boolean {
  return Object.keys(compactOverlay(overlay)).length === 0;
}
