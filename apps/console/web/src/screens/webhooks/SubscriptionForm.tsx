import { FormEvent, useState } from 'react';
import { asProblem } from '../../api/problem';
import { Field, ProblemMessage } from '../../ui/kit';
import { useEventTypeFamilies } from './queries';
import type { Subscription, SubscriptionBody } from './types';

/** The form's own values: text as typed, turned into a body by `bodyOf`. */
export interface SubscriptionFormValues {
  callbackUrl: string;
  /** One pattern per line (commas separate too). */
  eventTypes: string;
  description: string;
  /** Empty: the platform default. */
  maxRetries: string;
  isActive: boolean;
}

export const EMPTY_FORM: SubscriptionFormValues = { callbackUrl: '', eventTypes: '', description: '', maxRetries: '', isActive: true };

export function valuesOf(subscription: Subscription): SubscriptionFormValues {
  return {
    callbackUrl: subscription.callbackUrl,
    eventTypes: subscription.eventTypes.join('\n'),
    description: subscription.description ?? '',
    maxRetries: subscription.maxRetries === null ? '' : String(subscription.maxRetries),
    isActive: subscription.isActive,
  };
}

export function patternsOf(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((pattern) => pattern.trim())
    .filter(Boolean);
}

function retriesOf(text: string): number | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  // Anything else goes to the API as typed: its message names the rule (0..25).
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The create body: every field the form has (empty description and retries left to the defaults). */
export function createBodyOf(values: SubscriptionFormValues): SubscriptionBody {
  const description = values.description.trim();
  const maxRetries = retriesOf(values.maxRetries);
  return {
    callbackUrl: values.callbackUrl.trim(),
    eventTypes: patternsOf(values.eventTypes),
    ...(description ? { description } : {}),
    isActive: values.isActive,
    ...(maxRetries === null ? {} : { maxRetries: maxRetries as number }),
  };
}

/** The PATCH body: only what differs from the subscription as it is (empty when nothing does). */
export function patchBodyOf(values: SubscriptionFormValues, subscription: Subscription): SubscriptionBody {
  const body: SubscriptionBody = {};
  const callbackUrl = values.callbackUrl.trim();
  if (callbackUrl !== subscription.callbackUrl) body.callbackUrl = callbackUrl;
  const eventTypes = patternsOf(values.eventTypes);
  if (eventTypes.join('\n') !== subscription.eventTypes.join('\n')) body.eventTypes = eventTypes;
  const description = values.description.trim() || null;
  if (description !== subscription.description) body.description = description;
  const maxRetries = retriesOf(values.maxRetries);
  if (maxRetries !== subscription.maxRetries) body.maxRetries = maxRetries as number | null;
  return body;
}

/**
 * The fields of a subscription, for create and for edit. The API judges every value: its
 * `Validation.Failed` messages are shown beside their fields (`eventTypes[i]` beside the patterns,
 * naming the line), and its problem above the buttons.
 */
export function SubscriptionForm({
  initial,
  submitLabel,
  busyLabel,
  busy,
  error,
  withActive,
  autoFocus = false,
  onSubmit,
  onCancel,
}: {
  initial: SubscriptionFormValues;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  error: unknown;
  /** Create only: whether it starts active (edit has its own activate/deactivate button). */
  withActive: boolean;
  /** Edit: the form opens in place of its button, so the focus moves to its first field. */
  autoFocus?: boolean;
  onSubmit: (values: SubscriptionFormValues) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [sentPatterns, setSentPatterns] = useState<string[]>([]);
  const problem = error ? asProblem(error) : undefined;
  const errorsOf = (field: string) => problem?.field(field) ?? [];
  const patternErrors = [
    ...errorsOf('eventTypes'),
    ...Object.entries(problem?.fieldErrors ?? {}).flatMap(([field, messages]) => {
      const match = /^eventTypes\[(\d+)\]$/.exec(field);
      if (!match) return [];
      const index = Number(match[1]);
      const pattern = sentPatterns[index];
      return messages.map((message) => `Pattern ${index + 1}${pattern === undefined ? '' : ` (${pattern})`}: ${message}`);
    }),
  ];
  const set = <K extends keyof SubscriptionFormValues>(key: K, value: SubscriptionFormValues[K]) => setValues((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSentPatterns(patternsOf(values.eventTypes));
    onSubmit(values);
  };

  return (
    // noValidate: the API is the judge, and its messages are the ones shown.
    <form noValidate onSubmit={submit} className="wh-form" aria-busy={busy}>
      <Field
        label="Callback URL"
        errors={errorsOf('callbackUrl')}
        hint="Where deliveries are POSTed: an absolute http: or https: URL (https: only in production)."
      >
        {(id, describedBy) => (
          <input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={errorsOf('callbackUrl').length > 0}
            inputMode="url"
            autoFocus={autoFocus}
            autoComplete="off"
            spellCheck={false}
            size={60}
            value={values.callbackUrl}
            onChange={(event) => set('callbackUrl', event.target.value)}
          />
        )}
      </Field>
      <Field
        label="Event types"
        errors={patternErrors}
        hint={
          <>
            One pattern per line: <code>ticket.*</code> (a whole module), <code>ticket.created</code> (one type) or <code>*.created</code> (a last segment).
            <EventTypeFamilies />
          </>
        }
      >
        {(id, describedBy) => (
          <textarea
            id={id}
            aria-describedby={describedBy}
            aria-invalid={patternErrors.length > 0}
            rows={4}
            spellCheck={false}
            value={values.eventTypes}
            onChange={(event) => set('eventTypes', event.target.value)}
          />
        )}
      </Field>
      <Field label="Description" errors={errorsOf('description')} hint="Optional, up to 500 characters.">
        {(id, describedBy) => (
          <input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={errorsOf('description').length > 0}
            size={60}
            value={values.description}
            onChange={(event) => set('description', event.target.value)}
          />
        )}
      </Field>
      <Field
        label="Max retries"
        errors={errorsOf('maxRetries')}
        hint="Retries after the first attempt, 0..25; empty: the platform default (5 unless configured)."
      >
        {(id, describedBy) => (
          <input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={errorsOf('maxRetries').length > 0}
            type="number"
            min={0}
            max={25}
            step={1}
            className="wh-narrow"
            value={values.maxRetries}
            onChange={(event) => set('maxRetries', event.target.value)}
          />
        )}
      </Field>
      {withActive ? (
        <div className="wh-checkbox">
          <input id="wh-form-active" type="checkbox" checked={values.isActive} onChange={(event) => set('isActive', event.target.checked)} />
          <label htmlFor="wh-form-active">Active (deliver events from now on)</label>
          {errorsOf('isActive').map((message) => (
            <div key={message} className="field-error">
              {message}
            </div>
          ))}
        </div>
      ) : null}
      <ProblemMessage error={error} title={problem?.status === 400 ? 'The subscription was not saved' : undefined} />
      <div className="wh-toolbar">
        <button type="submit" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** The families a subscription may name, as the API lists them (`GET /api/webhooks/event-types`), with the types the platform itself publishes. */
function EventTypeFamilies() {
  const families = useEventTypeFamilies();
  if (!families.data) return null;
  const known = families.data.items.flatMap((family) => family.knownEventTypes);
  return (
    <>
      {' '}
      Modules: {families.data.items.map((family) => `${family.module} (${family.source})`).join(', ')}.
      {known.length > 0 ? (
        <details>
          <summary>Event types the platform publishes</summary>
          <ul className="wh-known-types">
            {known.map((type) => (
              <li key={type}>
                <code>{type}</code>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}
