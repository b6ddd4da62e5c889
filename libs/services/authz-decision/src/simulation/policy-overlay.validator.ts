import { FieldProblems, isAuthorizationAction, PolicyOverlay, SimulationLimits, ValidationError } from '@lp/contracts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.trim().length > 0 && v.length <= max;
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

function list(value: unknown, field: string, problems: FieldProblems): Record<string, unknown>[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > SimulationLimits.maxOverlayEntries) {
    problems.add(field, `must be a list of at most ${SimulationLimits.maxOverlayEntries} entries`);
    return [];
  }
  return value.filter((entry, i) => (isObject(entry) ? true : (problems.add(`${field}.${i}`, 'must be an object'), false)));
}

function fields(entry: Record<string, unknown>, field: string, spec: Record<string, number>, problems: FieldProblems): void {
  for (const k of Object.keys(entry)) if (!Object.hasOwn(spec, k)) problems.add(`${field}.${k}`, 'is not a known field');
  for (const [k, max] of Object.entries(spec))
    if (!isText(entry[k], max)) problems.add(`${field}.${k}`, `must be a non-empty string of at most ${max} characters`);
}

function strings(value: unknown, field: string, problems: FieldProblems, max = 100): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length > SimulationLimits.maxOverlayEntries || !value.every((s) => isText(s, max))) {
    problems.add(field, `must be a list of non-empty strings of at most ${max} characters`);
  }
}

function checkRule(rule: Record<string, unknown>, field: string, problems: FieldProblems): void {
  const known = ['id', 'name', 'priority', 'verdict', 'conditions', 'actions', 'modules', 'resourceTypes', 'obligations'];
  for (const k of Object.keys(rule)) if (!known.includes(k)) problems.add(`${field}.${k}`, 'is not a known field');
  if (rule['id'] !== undefined && !isText(rule['id'], 100)) problems.add(`${field}.id`, 'must be a non-empty string of at most 100 characters');
  if (rule['name'] !== undefined && !isText(rule['name'], 200)) problems.add(`${field}.name`, 'must be a non-empty string of at most 200 characters');
  if (!Number.isInteger(rule['priority'])) problems.add(`${field}.priority`, 'must be an integer');
  if (rule['verdict'] !== 1 && rule['verdict'] !== 2) problems.add(`${field}.verdict`, 'must be 1 (Allow) or 2 (Deny)');
  const conditions = rule['conditions'];
  if (!Array.isArray(conditions) || conditions.length > 50) problems.add(`${field}.conditions`, 'must be a list of at most 50 conditions');
  else {
    conditions.forEach((c, i) => {
      const at = `${field}.conditions.${i}`;
      if (!isObject(c)) return problems.add(at, 'must be an object');
      for (const k of Object.keys(c)) if (!['field', 'operator', 'value'].includes(k)) problems.add(`${at}.${k}`, 'is not a known field');
      if (!Number.isInteger(c['field']) || (c['field'] as number) < 1) problems.add(`${at}.field`, 'must be a positive integer');
      if (!Number.isInteger(c['operator']) || (c['operator'] as number) < 1) problems.add(`${at}.operator`, 'must be a positive integer');
      const v = c['value'];
      if (v !== undefined && !isScalar(v) && !(Array.isArray(v) && v.length <= 100 && v.every(isScalar))) {
        problems.add(`${at}.value`, 'must be a string, number, boolean or a list of them');
      }
    });
  }
  const actions = rule['actions'];
  if (actions !== undefined && !(Array.isArray(actions) && actions.every(isAuthorizationAction))) problems.add(`${field}.actions`, 'must be a list of actions');
  strings(rule['modules'], `${field}.modules`, problems, 64);
  strings(rule['resourceTypes'], `${field}.resourceTypes`, problems, 64);
  strings(rule['obligations'], `${field}.obligations`, problems, 200);
}

/**
 * Checks an overlay's shape at the RPC boundary (policy-management checks it too, but the broker
 * is a boundary of its own). References (roles, codes, features, rules) are checked against the
 * stores by the simulator.
 * @throws ValidationError listing every problem, fields prefixed with `overlay.`.
 */
export function validatePolicyOverlay(value: unknown): PolicyOverlay {
  if (value === undefined || value === null) return {};
  const problems = new FieldProblems();
  if (!isObject(value)) throw new ValidationError({ overlay: ['must be an object'] });
  const known = ['addRoleBindings', 'removeRoleBindings', 'addRolePermissions', 'removeRolePermissions', 'abacRules', 'features'];
  for (const k of Object.keys(value)) if (!known.includes(k)) problems.add(`overlay.${k}`, 'is not a known field');
  for (const name of ['addRoleBindings', 'removeRoleBindings'] as const) {
    list(value[name], `overlay.${name}`, problems).forEach((b, i) => fields(b, `overlay.${name}.${i}`, { subject: 255, roleName: 100 }, problems));
  }
  for (const name of ['addRolePermissions', 'removeRolePermissions'] as const) {
    list(value[name], `overlay.${name}`, problems).forEach((p, i) => fields(p, `overlay.${name}.${i}`, { roleName: 100, permissionCode: 200 }, problems));
  }
  const abac = value['abacRules'];
  if (abac !== undefined) {
    if (!isObject(abac)) problems.add('overlay.abacRules', 'must be an object with add and remove');
    else {
      for (const k of Object.keys(abac)) if (k !== 'add' && k !== 'remove') problems.add(`overlay.abacRules.${k}`, 'is not a known field');
      list(abac['add'], 'overlay.abacRules.add', problems).forEach((r, i) => checkRule(r, `overlay.abacRules.add.${i}`, problems));
      strings(abac['remove'], 'overlay.abacRules.remove', problems);
    }
  }
  list(value['features'], 'overlay.features', problems).forEach((f, i) => {
    const at = `overlay.features.${i}`;
    for (const k of Object.keys(f)) if (k !== 'code' && k !== 'enabled') problems.add(`${at}.${k}`, 'is not a known field');
    if (!isText(f['code'], 100)) problems.add(`${at}.code`, 'must be a non-empty string of at most 100 characters');
    if (typeof f['enabled'] !== 'boolean') problems.add(`${at}.enabled`, 'must be a boolean');
  });
  if (problems.size > 0) throw new ValidationError(problems.toRecord());
  return value as PolicyOverlay;
}
