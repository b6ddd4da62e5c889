/**
 * The Why? screen's question and its proposed changes, as the URL query string holds them, so that a
 * link (from the Audit screen, a ticket, a chat) opens the same question with its answer.
 */

/** The catalog's capitalised actions (`AuthorizationAction` in the contracts). */
export const ACTIONS = ['View', 'Create', 'Update', 'Delete', 'Assign', 'Revoke', 'Grant', 'Approve', 'Reject', 'Manage'] as const;

/** What the simulator is asked: may `subject` (a user of the caller's tenant) do `action` on the resource? */
export interface Question {
  subject: string;
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
const QUESTION_FIELDS = ['subject', 'action', 'module', 'resourceType', 'resourceId', ...FACT_FIELDS] as const;

export const EMPTY_QUESTION: Question = {
  subject: '',
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
  return question.subject.trim() !== '' && question.action !== '' && question.module.trim() !== '' && question.resourceType.trim() !== '';
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
  for (const field of QUESTION_FIELDS) {
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

/** The evaluate route's body: `{ subject, request: { resource, action }, overlay? }`. */
export function simulationBody(question: Question, overlay?: PolicyOverlay) {
  const resource: Record<string, string | number> = { module: question.module.trim(), resourceType: question.resourceType.trim() };
  for (const field of ['resourceId', 'status', 'sensitivity', 'owner', 'officeId'] as const) {
    const value = question[field].trim();
    if (value) resource[field] = value;
  }
  const amount = question.amount.trim();
  // A number when it is one; otherwise the text goes as it is and the API says what is wrong with it.
  if (amount) resource.amount = Number.isFinite(Number(amount)) ? Number(amount) : amount;
  return { subject: question.subject.trim(), request: { resource, action: question.action }, ...(overlay ? { overlay } : {}) };
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
