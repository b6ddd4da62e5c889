import { KeyboardEvent, useId, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';
import { DecisionAudit } from './DecisionAudit';
import { PolicyChangeLog } from './PolicyChangeLog';
import './audit.css';

const TABS = [
  { id: 'decisions', label: 'Decisions' },
  { id: 'changes', label: 'Policy changes' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/**
 * Audit: the tenant's authorization decisions and its policy change log
 * (`/api/authorization/permission-audit/*`), each filtered and paged, the tab, filters and page in
 * the URL. A decision links to Why? with its question.
 */
function AuditScreen() {
  const [params, setParams] = useSearchParams();
  const tab: TabId = params.get('tab') === 'changes' ? 'changes' : 'decisions';
  const baseId = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  // Each tab has its own filters: switching starts the other one afresh.
  const select = (id: TabId) => setParams(id === 'decisions' ? {} : { tab: id });
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = (index + step + TABS.length) % TABS.length;
    const target = TABS[next];
    if (!target) return;
    select(target.id);
    tabRefs.current[next]?.focus();
  };

  return (
    <section>
      <ScreenTitle>Audit</ScreenTitle>
      <div className="tabs" role="tablist" aria-label="Audit records">
        {TABS.map((t, index) => (
          <button
            key={t.id}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-${t.id}-tab`}
            aria-selected={tab === t.id}
            aria-controls={`${baseId}-${t.id}-panel`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => select(t.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-${tab}-panel`} aria-labelledby={`${baseId}-${tab}-tab`}>
        {tab === 'decisions' ? <DecisionAudit /> : <PolicyChangeLog />}
      </div>
    </section>
  );
}

export const auditScreen: ScreenDefinition = { path: 'audit', label: 'Audit', needs: ['authorization.permission-audit.view'], component: AuditScreen };
