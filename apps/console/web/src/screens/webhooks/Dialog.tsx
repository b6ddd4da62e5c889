import { ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal `<dialog>`: opening it moves focus inside (to the element marked `data-autofocus`, else
 * the first field or button), Escape closes it, and closing gives focus back to what had it before.
 */
export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      const first = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>('input, select, textarea, button');
      first?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const closed = () => {
      // Back to the opener, unless something else took the focus meanwhile (a secret just shown, say).
      const active = document.activeElement;
      const lost = !active || active === document.body || dialog.contains(active);
      if (lost && returnTo.current?.isConnected) returnTo.current.focus();
      returnTo.current = null;
      onClose();
    };
    dialog.addEventListener('close', closed);
    return () => dialog.removeEventListener('close', closed);
  }, [onClose]);

  return (
    <dialog ref={ref} className="wh-dialog" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {open ? children : null}
    </dialog>
  );
}
