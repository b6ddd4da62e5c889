import { useEffect, useId, useRef, useState } from 'react';
import { Field } from '../../ui/kit';

/**
 * A signing secret, from the answer to create or rotate, shown this once: the API never shows it
 * again, and the console keeps no copy once this panel is gone (it lives in this component's state
 * only: not in the URL, the history, the query cache or storage).
 */
export function SecretOnce({ secret, title, onDismiss }: { secret: string; title: string; onDismiss?: () => void }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  // Screen readers (and keyboards) land on the secret the moment it appears.
  useEffect(() => heading.current?.focus(), []);

  const copyToClipboard = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopy('copied');
    } catch {
      input.current?.select();
      setCopy('failed');
    }
  };

  return (
    <section className="wh-secret" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        {title}
      </h3>
      <p className="wh-secret-warning">
        <strong>Copy it now: you will not see it again.</strong> The platform keeps it encrypted and never shows it in any later answer. Receivers use it to
        check the <code>X-Webhook-Signature</code> of every delivery. Lost it? Rotate the secret.
      </p>
      <div className="form-row">
        <Field label="Signing secret">
          {(id, describedBy) => (
            <input
              id={id}
              ref={input}
              aria-describedby={describedBy}
              className="wh-secret-value"
              readOnly
              value={secret}
              size={56}
              spellCheck={false}
              onFocus={(event) => event.currentTarget.select()}
            />
          )}
        </Field>
        <button type="button" onClick={() => void copyToClipboard()}>
          Copy secret
        </button>
      </div>
      <p role="status" className="wh-copy-status">
        {copy === 'copied'
          ? 'Copied to the clipboard.'
          : copy === 'failed'
            ? 'The browser refused the clipboard: the secret is selected, press Ctrl+C (⌘C).'
            : ''}
      </p>
      {onDismiss ? (
        <button type="button" className="secondary" onClick={onDismiss}>
          I have stored it: hide the secret
        </button>
      ) : null}
    </section>
  );
}
