import { compactOverlay, FeatureOverride, PolicyOverlay, RoleBinding, RolePermission } from './question';

/** The kinds of proposed change the what-if form offers (the JSON editor takes any overlay). */
export const CHANGE_KINDS = [
  { kind: 'addRoleBindings', label: 'Assign a role to a subject' },
  { kind: 'removeRoleBindings', label: 'Take a role from a subject' },
  { kind: 'addRolePermissions', label: 'Grant a permission to a role' },
  { kind: 'removeRolePermissions', label: 'Revoke a permission from a role' },
  { kind: 'features', label: 'Switch a feature for the tenant' },
  { kind: 'removeAbacRule', label: 'Leave out an attribute (ABAC) rule' },
] as const;

export type ChangeKind = (typeof CHANGE_KINDS)[number]['kind'];

/** One line of the form: the fields a change of each kind needs. */
export interface ChangeDraft {
  kind: ChangeKind;
  subject: string;
  roleName: string;
  permissionCode: string;
  featureCode: string;
  featureEnabled: boolean;
  ruleId: string;
}

/** One proposed change as a sentence, with the overlay that is left once it is taken out. */
export interface ListedChange {
  key: string;
  text: string;
  without: PolicyOverlay;
}

function withoutItem<T>(list: T[] | undefined, index: number): T[] {
  return (list ?? []).filter((_, i) => i !== index);
}

/** Adds a drafted change to the overlay (the same change twice is kept once). */
export function addChange(overlay: PolicyOverlay, draft: ChangeDraft): PolicyOverlay {
  const next: PolicyOverlay = { ...overlay };
  const push = <T>(list: T[] | undefined, item: T): T[] => {
    const items = list ?? [];
    return items.some((existing) => JSON.stringify(existing) === JSON.stringify(item)) ? items : [...items, item];
  };
  switch (draft.kind) {
    case 'addRoleBindings':
    case 'removeRoleBindings':
      next[draft.kind] = push<RoleBinding>(overlay[draft.kind], { subject: draft.subject.trim(), roleName: draft.roleName.trim() });
      break;
    case 'addRolePermissions':
    case 'removeRolePermissions':
      next[draft.kind] = push<RolePermission>(overlay[draft.kind], { roleName: draft.roleName.trim(), permissionCode: draft.permissionCode.trim() });
      break;
    case 'features':
      next.features = [
        ...(overlay.features ?? []).filter((f) => f.code !== draft.featureCode.trim()),
        { code: draft.featureCode.trim(), enabled: draft.featureEnabled },
      ];
      break;
    case 'removeAbacRule':
      next.abacRules = { ...overlay.abacRules, remove: push<string>(overlay.abacRules?.remove, draft.ruleId.trim()) };
      break;
  }
  return compactOverlay(next);
}

/** What the draft is missing before it can be added, by field. */
export function draftErrors(draft: ChangeDraft): Partial<Record<'subject' | 'roleName' | 'permissionCode' | 'featureCode' | 'ruleId', string>> {
  const missing = (value: string) => value.trim() === '';
  switch (draft.kind) {
    case 'addRoleBindings':
    case 'removeRoleBindings':
      return { ...(missing(draft.subject) ? { subject: 'Name the subject.' } : {}), ...(missing(draft.roleName) ? { roleName: 'Name the role.' } : {}) };
    case 'addRolePermissions':
    case 'removeRolePermissions':
      return {
        ...(missing(draft.roleName) ? { roleName: 'Name the role.' } : {}),
        ...(missing(draft.permissionCode) ? { permissionCode: 'Name the permission code.' } : {}),
      };
    case 'features':
      return missing(draft.featureCode) ? { featureCode: 'Name the feature.' } : {};
    case 'removeAbacRule':
      return missing(draft.ruleId) ? { ruleId: 'Give the rule id.' } : {};
  }
}

/** The overlay as a list of sentences, each removable on its own. */
export function listChanges(overlay: PolicyOverlay): ListedChange[] {
  const changes: ListedChange[] = [];
  overlay.addRoleBindings?.forEach((b, i) =>
    changes.push({
      key: `ab${i}`,
      text: `Assign role ${b.roleName} to ${b.subject}`,
      without: { ...overlay, addRoleBindings: withoutItem(overlay.addRoleBindings, i) },
    }),
  );
  overlay.removeRoleBindings?.forEach((b, i) =>
    changes.push({
      key: `rb${i}`,
      text: `Take role ${b.roleName} from ${b.subject}`,
      without: { ...overlay, removeRoleBindings: withoutItem(overlay.removeRoleBindings, i) },
    }),
  );
  overlay.addRolePermissions?.forEach((p, i) =>
    changes.push({
      key: `ap${i}`,
      text: `Grant ${p.permissionCode} to role ${p.roleName}`,
      without: { ...overlay, addRolePermissions: withoutItem(overlay.addRolePermissions, i) },
    }),
  );
  overlay.removeRolePermissions?.forEach((p, i) =>
    changes.push({
      key: `rp${i}`,
      text: `Revoke ${p.permissionCode} from role ${p.roleName}`,
      without: { ...overlay, removeRolePermissions: withoutItem(overlay.removeRolePermissions, i) },
    }),
  );
  overlay.features?.forEach((f: FeatureOverride, i) =>
    changes.push({
      key: `f${i}`,
      text: `Switch feature ${f.code} ${f.enabled ? 'on' : 'off'}`,
      without: { ...overlay, features: withoutItem(overlay.features, i) },
    }),
  );
  overlay.abacRules?.remove?.forEach((id, i) =>
    changes.push({
      key: `rr${i}`,
      text: `Leave out ABAC rule ${id}`,
      without: { ...overlay, abacRules: { ...overlay.abacRules, remove: withoutItem(overlay.abacRules?.remove, i) } },
    }),
  );
  overlay.abacRules?.add?.forEach((rule, i) =>
    changes.push({
      key: `ar${i}`,
      text: `Add ABAC rule ${describeRule(rule)}`,
      without: { ...overlay, abacRules: { ...overlay.abacRules, add: withoutItem(overlay.abacRules?.add, i) } },
    }),
  );
  const known = new Set(['addRoleBindings', 'removeRoleBindings', 'addRolePermissions', 'removeRolePermissions', 'features', 'abacRules']);
  for (const key of Object.keys(overlay).filter((k) => !known.has(k))) {
    const rest: Record<string, unknown> = { ...overlay };
    delete rest[key];
    changes.push({ key: `x-${key}`, text: `${key} (not a change the simulator knows; the API will say so)`, without: rest as PolicyOverlay });
  }
  return changes.map((change) => ({ ...change, without: compactOverlay(change.without) }));
}

function describeRule(rule: unknown): string {
  if (typeof rule !== 'object' || rule === null) return JSON.stringify(rule);
  const r = rule as { name?: unknown; id?: unknown; verdict?: unknown; priority?: unknown };
  const name = typeof r.name === 'string' ? r.name : typeof r.id === 'string' ? r.id : 'unnamed';
  const verdict = r.verdict === 1 ? 'Allow' : r.verdict === 2 ? 'Deny' : `verdict ${String(r.verdict)}`;
  return `${name} (${verdict}, priority ${String(r.priority)})`;
}
