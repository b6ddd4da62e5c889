import { KeyboardEvent, ReactNode, useRef } from 'react';

export interface TabItem {
  key: string;
  label: string;
}

/**
 * The WAI-ARIA tabs pattern: one tab stop for the list, arrow keys (and Home/End) move between the
 * tabs and select them, the panel is labelled by its tab.
 */
export function Tabs({
  label,
  items,
  selected,
  onSelect,
  children,
}: {
  label: string;
  items: TabItem[];
  selected: string;
  onSelect: (key: string) => void;
  children: ReactNode;
}) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const index = Math.max(
    0,
    items.findIndex((item) => item.key === selected),
  );
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % items.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + items.length) % items.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? items.length - 1
              : -1;
    const item = items[next];
    if (!item) return;
    event.preventDefault();
    onSelect(item.key);
    refs.current[item.key]?.focus();
  };
  const current = items[index];
  return (
    <>
      <div className="tabs" role="tablist" aria-label={label} onKeyDown={move}>
        {items.map((item) => (
          <button
            key={item.key}
            ref={(element) => {
              refs.current[item.key] = element;
            }}
            type="button"
            role="tab"
            id={`wh-tab-${item.key}`}
            aria-selected={item.key === current?.key}
            aria-controls="wh-tabpanel"
            tabIndex={item.key === current?.key ? 0 : -1}
            onClick={() => onSelect(item.key)}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="wh-tabpanel" aria-labelledby={current ? `wh-tab-${current.key}` : undefined}>
        {children}
      </div>
    </>
  );
}
