import { useEffect, useRef, useState } from 'react';

/**
 * A destructive action in two steps, without a modal: the first press turns the button into a
 * question with "Yes, …" (focused) and "Cancel"; Cancel (or Escape) puts focus back on the button.
 */
export function ConfirmButton({
  label,
  name,
  confirmLabel,
  question,
  busy,
  busyLabel,
  tone = 'danger',
  onConfirm,
}: {
  /** The button's text (`Delete`). */
  label: string;
  /** Its accessible name when several share the text: starts with the text (`Delete role clerks`). */
  name?: string;
  /** The name of the button that carries out the action. */
  confirmLabel: string;
  question: string;
  busy?: boolean;
  busyLabel?: string;
  /** The first button's look: `danger` (deletions), `secondary` (a weighty change that destroys nothing). */
  tone?: 'danger' | 'secondary';
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  const yes = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (asking) yes.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      first.current?.focus();
    }
  }, [asking]);

  if (busy) {
    return (
      <button type="button" className={tone} disabled>
        {busyLabel ?? 'Working…'}
      </button>
    );
  }
  if (!asking) {
    return (
      <button ref={first} type="button" className={tone} aria-label={name} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  const cancel = () => {
    returnFocus.current = true;
    setAsking(false);
  };
  return (
    <span
      className="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(event) => {
        if (event.key === 'Escape') cancel();
      }}
    >
      <span className="confirm-question">{question}</span>
      <button
        ref={yes}
        type="button"
        className={tone === 'danger' ? 'danger' : undefined}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={cancel}>
        Cancel
      </button>
    </span>
  );
}
