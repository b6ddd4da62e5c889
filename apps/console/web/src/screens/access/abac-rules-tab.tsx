import { useRef, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useSession } from '../../api/session';
import { Busy, Pager, ProblemMessage } from '../../ui/kit';
import { AbacCondition, AbacRule, accessKeys, createAbacRule, deleteAbacRule, getAbacRule, listAbacRules, SaveAbacRule, updateAbacRule } from './access-api';
import { AbacRuleForm } from './abac-rule-form';
import { draftOf } from './abac-rule-validation';
import { ConfirmButton } from './confirm-button';

type Editing = { mode: 'create' } | { mode: 'update'; rule: AbacRule };

function describeCondition(condition: AbacCondition): string {
  const value = condition.value === undefined ? '' : ` ${JSON.stringify(condition.value)}`;
  return `${condition.field} ${condition.operator}${value}`;
}

function describeScope(rule: AbacRule): string {
  const parts = [
    rule.actions.length > 0 ? rule.actions.join(', ') : 'any action',
    rule.modules.length > 0 ? `in ${rule.modules.join(', ')}` : 'in any module',
    rule.resourceTypes.length > 0 ? `on ${rule.resourceTypes.join(', ')}` : 'on any resource',
  ];
  return parts.join(' ');
}

/**
 * The tenant's ABAC rules in evaluation order (priority ascending), paged; a form to create one or
 * replace one (`PUT` replaces the whole rule), and deletion. The rule being edited is in the address
 * (`?rule={id}`) and read by id (`GET /abac-rules/{ruleId}`), so a link opens it on any page.
 */
export function AbacRulesTab() {
  const { api, canAny } = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const pageIndex = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const ruleId = params.get('rule') ?? '';
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string>();
  const opener = useRef<HTMLElement | null>(null);

  const rules = useQuery({
    queryKey: accessKeys.abacRulePage(pageIndex),
    queryFn: ({ signal }) => listAbacRules(api, pageIndex, signal),
    placeholderData: keepPreviousData,
  });
  const opened = useQuery({
    queryKey: accessKeys.abacRule(ruleId),
    queryFn: ({ signal }) => getAbacRule(api, ruleId, signal),
    enabled: ruleId !== '' && !creating,
  });
  const editing: Editing | undefined = creating ? { mode: 'create' } : opened.data ? { mode: 'update', rule: opened.data } : undefined;

  const setRule = (id: string | undefined) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set('rule', id);
      else next.delete('rule');
      return next;
    });
  const open = (next: Editing) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setNotice(undefined);
    save.reset();
    setCreating(next.mode === 'create');
    setRule(next.mode === 'update' ? next.rule.id : undefined);
  };
  const close = () => {
    setCreating(false);
    setRule(undefined);
    const back = opener.current;
    requestAnimationFrame(() => {
      if (back?.isConnected) back.focus();
    });
  };

  const save = useMutation({
    mutationFn: (body: SaveAbacRule) => (editing?.mode === 'update' ? updateAbacRule(api, editing.rule.id, body) : createAbacRule(api, body)),
    onSuccess: async (rule) => {
      // The list is read again first, so the message and the table agree when the message appears.
      await queryClient.invalidateQueries({ queryKey: accessKeys.abacRules() });
      setNotice(editing?.mode === 'update' ? `Rule “${rule.name}” saved.` : `Rule “${rule.name}” created (priority ${rule.priority}).`);
      close();
    },
  });
  const remove = useMutation({
    mutationFn: (rule: AbacRule) => deleteAbacRule(api, rule.id).then(() => rule),
    onMutate: () => setNotice(undefined),
    onSuccess: async (rule) => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.abacRules() });
      setNotice(`Rule “${rule.name}” deleted.`);
    },
  });

  const setPage = (index: number) =>
    setParams(() => {
      const next = new URLSearchParams();
      if (index > 0) next.set('page', String(index));
      return next;
    });

  return (
    <section aria-labelledby="abac-heading">
      <div className="access-toolbar">
        <h2 id="abac-heading">ABAC rules</h2>
        {canAny(['authorization.abac-rule.create']) && !editing && (
          <button type="button" onClick={() => open({ mode: 'create' })}>
            New rule
          </button>
        )}
      </div>
      <p className="field-help">
        Tried in order of priority; the first rule that applies and whose conditions all hold allows or denies. A Deny overrides any role.
      </p>
      {opened.isPending && ruleId !== '' && !creating && <Busy label="Loading the rule…" />}
      <ProblemMessage error={opened.error} title="The rule could not be read" />
      {opened.data === null && (
        <p className="notice" role="note">
          This tenant has no ABAC rule with the id in the address (it may have been deleted).
        </p>
      )}
      {editing && (
        <div className="access-card">
          <h3>{editing.mode === 'create' ? 'New ABAC rule' : `Edit rule “${editing.rule.name}”`}</h3>
          <AbacRuleForm
            key={editing.mode === 'update' ? editing.rule.id : 'new'}
            mode={editing.mode}
            initial={editing.mode === 'update' ? draftOf(editing.rule) : undefined}
            saving={save.isPending}
            error={save.error}
            onSave={(body) => save.mutate(body)}
            onCancel={close}
          />
        </div>
      )}
      {notice && (
        <p className="success" role="status">
          {notice}
        </p>
      )}
      {rules.isPending && <Busy label="Loading ABAC rules…" />}
      <ProblemMessage error={rules.error} title="The ABAC rules could not be read" />
      <ProblemMessage error={remove.error} title="The rule was not deleted" />
      {rules.data && (
        <>
          <table className="access-table">
            <caption className="visually-hidden">ABAC rules in evaluation order</caption>
            <thead>
              <tr>
                <th scope="col">Priority</th>
                <th scope="col">Name</th>
                <th scope="col">Verdict</th>
                <th scope="col">Applies to</th>
                <th scope="col">Conditions</th>
                <th scope="col">Enabled</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.data.items.length === 0 && (
                <tr>
                  <td colSpan={7}>No ABAC rules: decisions rest on roles, relations and features.</td>
                </tr>
              )}
              {rules.data.items.map((rule) => (
                <tr key={rule.id}>
                  <td>{rule.priority}</td>
                  <th scope="row">
                    {rule.name}
                    {rule.description && <div className="field-help">{rule.description}</div>}
                  </th>
                  <td className={rule.verdict === 'Allow' ? 'verdict-permit' : 'verdict-deny'}>{rule.verdict}</td>
                  <td>{describeScope(rule)}</td>
                  <td>{rule.conditions.length === 0 ? 'always' : rule.conditions.map(describeCondition).join(' and ')}</td>
                  <td>{rule.enabled ? 'yes' : 'no'}</td>
                  <td className="access-actions">
                    {canAny(['authorization.abac-rule.update']) && (
                      <button type="button" className="secondary" aria-label={`Edit rule ${rule.name}`} onClick={() => open({ mode: 'update', rule })}>
                        Edit
                      </button>
                    )}
                    {canAny(['authorization.abac-rule.delete']) && (
                      <ConfirmButton
                        label="Delete"
                        name={`Delete rule ${rule.name}`}
                        question={`Delete rule “${rule.name}”?`}
                        confirmLabel="Yes, delete"
                        busy={remove.isPending && remove.variables?.id === rule.id}
                        busyLabel="Deleting…"
                        onConfirm={() => remove.mutate(rule)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={rules.data} onPage={setPage} label="ABAC rules" />
        </>
      )}
    </section>
  );
}
