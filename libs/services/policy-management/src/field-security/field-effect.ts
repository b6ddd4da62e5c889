import { FieldPolicyEffect } from '../policy-store';

/** The effect as the routes name it; persisted as `FieldPolicyEffect` (1 hidden, 2 masked, 3 read-only). */
export type FieldEffectName = 'hidden' | 'masked' | 'read-only';
export const FIELD_EFFECT_NAMES: readonly FieldEffectName[] = ['hidden', 'masked', 'read-only'];

const BY_NAME: Readonly<Record<FieldEffectName, FieldPolicyEffect>> = {
  hidden: FieldPolicyEffect.Hidden,
  masked: FieldPolicyEffect.Masked,
  'read-only': FieldPolicyEffect.ReadOnly,
};

export function fieldEffectOf(name: FieldEffectName): FieldPolicyEffect {
  return BY_NAME[name];
}

export function fieldEffectName(effect: FieldPolicyEffect): FieldEffectName {
  const name = FIELD_EFFECT_NAMES.find((n) => BY_NAME[n] === effect);
  if (!name) throw new Error(`unknown field policy effect ${String(effect)}`);
  return name;
}

export interface RoleFieldEffect {
  field: string;
  roleName: string;
  effect: FieldPolicyEffect;
}

export interface EffectiveFieldEffect {
  field: string;
  effect: FieldEffectName;
  /** The roles whose policy gives that (strictest) effect, sorted. */
  roles: string[];
}

/**
 * The effect a subject gets per field across all its roles: the strictest wins, hidden > masked >
 * read-only, which is the lowest persisted integer. A field no role restricts is absent (no
 * restriction). Sorted by field.
 */
export function strictestFieldEffects(policies: readonly RoleFieldEffect[]): EffectiveFieldEffect[] {
  const byField = new Map<string, { effect: FieldPolicyEffect; roles: Set<string> }>();
  for (const p of policies) {
    const seen = byField.get(p.field);
    if (!seen || p.effect < seen.effect) byField.set(p.field, { effect: p.effect, roles: new Set([p.roleName]) });
    else if (p.effect === seen.effect) seen.roles.add(p.roleName);
  }
  return [...byField.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([field, { effect, roles }]) => ({ field, effect: fieldEffectName(effect), roles: [...roles].sort() }));
}
