import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useSession } from '../../api/session';
import { Busy, formatTime, ProblemMessage } from '../../ui/kit';
import { DeliveryLog } from './DeliveryLog';
import { ActiveBadge, retriesText } from './format';
import { WEBHOOK_PERMISSIONS } from './permissions';
import { WEBHOOKS, useSubscription } from './queries';
import { SecretOnce } from './SecretOnce';
import { SubscriptionActions } from './SubscriptionActions';
import { patchBodyOf, SubscriptionForm, SubscriptionFormValues, valuesOf } from './SubscriptionForm';
import type { Subscription } from './types';

/** One subscription: what it is, what can be done to it, its settings (PATCH) and its delivery log. */
export function SubscriptionDetail() {
  const { id = '' } = useParams();
  const session = useSession();
  const subscription = useSubscription(id);
  // A rotated secret, in this page's memory only, until the user hides it or leaves.
  const [secret, setSecret] = useState<string | undefined>();

  return (
    <section aria-labelledby="wh-detail">
      <p>
        <Link to="/webhooks">← All subscriptions</Link>
      </p>
      {subscription.isPending ? <Busy label="Loading the subscription…" /> : null}
      <ProblemMessage error={subscription.error} />
      {subscription.data ? (
        <>
          <div className="wh-title-line">
            <h2 id="wh-detail" className="wh-url">
              {subscription.data.callbackUrl}
            </h2>
            <ActiveBadge subscription={subscription.data} />
          </div>
          <SubscriptionActions subscription={subscription.data} onSecret={setSecret} />
          {secret ? <SecretOnce secret={secret} title="The new signing secret" onDismiss={() => setSecret(undefined)} /> : null}
          <SubscriptionFacts subscription={subscription.data} />
          {session.canAny([WEBHOOK_PERMISSIONS.update]) ? <SubscriptionEdit subscription={subscription.data} /> : null}
          {session.canAny([WEBHOOK_PERMISSIONS.deliveryView]) ? (
            <DeliveryLog subscriptionId={subscription.data.id} />
          ) : (
            <p className="notice">The delivery log needs the permission {WEBHOOK_PERMISSIONS.deliveryView}.</p>
          )}
        </>
      ) : (
        <h2 id="wh-detail">Subscription</h2>
      )}
    </section>
  );
}

function SubscriptionFacts({ subscription }: { subscription: Subscription }) {
  const session = useSession();
  return (
    <dl className="wh-facts">
      <dt>Event types</dt>
      <dd>
        {subscription.eventTypes.map((pattern) => (
          <code key={pattern} className="wh-pattern">
            {pattern}
          </code>
        ))}
      </dd>
      <dt>Description</dt>
      <dd>{subscription.description ?? '—'}</dd>
      <dt>Retries</dt>
      <dd>{retriesText(subscription)}</dd>
      <dt>Secret fingerprint</dt>
      <dd>
        <code className="wh-fingerprint">{subscription.secretFingerprint}</code>
        <div className="field-help">SHA-256 of the signing secret: compare it with the one your receiver holds. The secret itself is never shown again.</div>
      </dd>
      {subscription.previousSecretFingerprint ? (
        <>
          <dt>Previous secret</dt>
          <dd>
            <code className="wh-fingerprint">{subscription.previousSecretFingerprint}</code>
            <div className="field-help">Still signs deliveries until {formatTime(subscription.previousSecretExpiresAt)}.</div>
          </dd>
        </>
      ) : null}
      <dt>Id</dt>
      <dd>
        <code>{subscription.id}</code>
        {session.canAny([WEBHOOK_PERMISSIONS.deadLetterView]) ? (
          <>
            {' · '}
            <Link to={`/webhooks/dead-letters?subscriptionId=${subscription.id}`}>Its dead letters</Link>
          </>
        ) : null}
      </dd>
      <dt>Revision</dt>
      <dd>{subscription.revision}</dd>
      <dt>Created</dt>
      <dd>
        {formatTime(subscription.createdAt)} by {subscription.createdBy}
      </dd>
      <dt>Updated</dt>
      <dd>
        {formatTime(subscription.updatedAt)} by {subscription.updatedBy}
      </dd>
    </dl>
  );
}

/** `PATCH /api/webhooks/subscriptions/{id}` with only the fields that changed. */
function SubscriptionEdit({ subscription }: { subscription: Subscription }) {
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [unchanged, setUnchanged] = useState(false);
  const [saved, setSaved] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // The form closes on save: the focus goes back to the button that opened it.
  useEffect(() => {
    if (saved) editButton.current?.focus();
  }, [saved]);
  const save = useMutation({
    mutationFn: (values: SubscriptionFormValues) =>
      api.patch<Subscription>(`/api/webhooks/subscriptions/${encodeURIComponent(subscription.id)}`, patchBodyOf(values, subscription)),
    onSuccess: (answer) => {
      queryClient.setQueryData([...WEBHOOKS, 'subscription', answer.id], answer);
      void queryClient.invalidateQueries({ queryKey: [...WEBHOOKS, 'subscriptions'] });
      setEditing(false);
      setSaved(true);
    },
  });

  return (
    <section aria-labelledby="wh-settings" className="wh-settings">
      <div className="wh-heading">
        <h3 id="wh-settings">Settings</h3>
        {editing ? null : (
          <button
            ref={editButton}
            type="button"
            className="secondary"
            onClick={() => {
              save.reset();
              setSaved(false);
              setUnchanged(false);
              setEditing(true);
            }}
          >
            Edit settings
          </button>
        )}
      </div>
      {saved ? (
        <p className="success" role="status">
          Settings saved (revision {subscription.revision}).
        </p>
      ) : null}
      {editing ? (
        <>
          {unchanged ? (
            <p className="notice" role="status">
              Nothing changed: edit a field first.
            </p>
          ) : null}
          <SubscriptionForm
            key={subscription.revision}
            initial={valuesOf(subscription)}
            withActive={false}
            autoFocus
            submitLabel="Save settings"
            busyLabel="Saving…"
            busy={save.isPending}
            error={save.error}
            onSubmit={(values) => {
              const body = patchBodyOf(values, subscription);
              setUnchanged(Object.keys(body).length === 0);
              if (Object.keys(body).length > 0) save.mutate(values);
            }}
            onCancel={() => setEditing(false)}
          />
        </>
      ) : null}
    </section>
  );
}
