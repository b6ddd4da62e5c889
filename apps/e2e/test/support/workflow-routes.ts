/** The workflow-engine's route prefixes, as the e2e tests call them. */
export const DEFS = '/api/workflow/definitions';
export const RUNTIME = '/api/workflow/runtime';
export const TASKS = '/api/workflow/tasks';

/** An approval node whose assignees are the named users (definition format, docs/definitions-format.md). */
export const approval = (key: string, subjects: string[], extra: Record<string, unknown> = {}) => ({
  kind: 'approval',
  key,
  assignees: [{ kind: 'user', subjects }],
  ...extra,
});
