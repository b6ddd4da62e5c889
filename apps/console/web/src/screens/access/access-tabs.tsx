import { KeyboardEvent, ReactNode, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';

export interface AccessTab {
  /** Sub-path under `/access/` (`roles`, `features`, `abac-rules`). */
  path: string;
  label: string;
}

export const TAB_PANEL_ID = 'access-tabpanel';

export function tabId(path: string): string {
  return `access-tab-${path}`;
}

/**
 * The screen's tabs (WAI-ARIA tabs pattern): one tab stop, arrow keys, Home and End move between
 * tabs, and each tab is also an address (`/console/access/<tab>`), so a tab can be linked and
 * survives a reload. Selecting a tab navigates; the panel shows the route's content.
 */
export function AccessTabs({ tabs, selected, children }: { tabs: readonly AccessTab[]; selected: string; children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);

  const select = (index: number, focus: boolean) => {
    const tab = tabs[index];
    if (!tab) return;
    if (focus) buttons.current[index]?.focus();
    // The selected tab goes back to its list from a page below it (a role's detail), and otherwise
    // keeps its address (and the list's page in the query string).
    if (pathname !== `/access/${tab.path}`) void navigate(`/access/${tab.path}`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1;
    const target =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (target === undefined) return;
    event.preventDefault();
    select(target, true);
  };

  return (
    <>
      <div role="tablist" aria-label="Access" className="tabs">
        {tabs.map((tab, index) => {
          const isSelected = tab.path === selected;
          return (
            <button
              key={tab.path}
              ref={(element) => {
                buttons.current[index] = element;
              }}
              type="button"
              role="tab"
              id={tabId(tab.path)}
              aria-selected={isSelected}
              aria-controls={TAB_PANEL_ID}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => select(index, false)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={TAB_PANEL_ID} aria-labelledby={tabId(selected)} tabIndex={0} className="access-panel">
        {children}
      </div>
    </>
  );
}
