import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { asProblem } from '../../api/problem';
import { useSession } from '../../api/session';
import { Field, ProblemMessage } from '../../ui/kit';
import { Dialog } from './Dialog';
import { answerText } from './format';
import { WEBHOOK_PERMISSIONS } from './permissions';
import { WEBHOOKS } from './queries';
import type { PingResult, Subscription, SubscriptionWithSecret } from './types';

/**
 * What can be done to one subscription: ping, activate or deactivate, rotate the secret, delete.
 * Each button shows for the permission its route asks; the API still judges (a 403 is shown).
 * A rotated secret is handed to `onSecret`, which shows it once.
 */
export function SubscriptionActions({ subscription, onSecret }: { subscription: Subscription; onSecret: (secret: string) => void }) {
  const session = useSession();
  const { api } = session;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const path = `/api/webhooks/subscriptions/${encodeURIComponent(subscription.id)}`;
  const [dialog, setDialog] = useState<'delete' | 'rotate' | undefined>();
  const [overlap, setOverlap] = useState('');
  const closeDialog = useCallback(() => setDialog(undefined), []);
  const refresh = () => queryClient.invalidateQueries({ queryKey: WEBHOOKS });

  const ping = useMutation({
    mutationFn: () => api.post<PingResult>(`${path}/ping`),
    onSettled: refresh,
  });
  const toggle = useMutation({
    mutationFn: () => api.patch<Subscription>(path, { isActive: !subscription.isActive }),
    onSuccess: (answer) => queryClient.setQueryData([...WEBHOOKS, 'subscription', answer.id], answer),
    onSettled: refresh,
  });
  const rotate = useMutation({
    mutationFn: () => {
      const seconds = overlap.trim();
      return api.post<SubscriptionWithSecret>(
        `${path}/rotate-secret`,
        seconds === '' ? undefined : { overlapSeconds: /^\d+$/.test(seconds) ? Number(seconds) : seconds },
      );
    },
    gcTime: 0,
    onSuccess: (answer) => {
      const { secret, ...rest } = answer;
      queryClient.setQueryData([...WEBHOOKS, 'subscription', answer.id], rest);
      setDialog(undefined);
      setOverlap('');
      onSecret(secret);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => api.delete<void>(path),
    onSuccess: () => {
      // The lists are dropped, not just marked stale: the list shown next must not show it for a moment.
      queryClient.removeQueries({ queryKey: [...WEBHOOKS, 'subscription', subscription.id] });
      queryClient.removeQueries({ queryKey: [...WEBHOOKS, 'subscriptions'] });
      void queryClient.invalidateQueries({ queryKey: WEBHOOKS });
      void navigate('/webhooks', { state: { notice: `The subscription to ${subscription.callbackUrl} was deleted; its pending deliveries are cancelled.` } });
    },
  });

  const can = (code: string) => session.canAny([code]);
  const overlapErrors = rotate.error ? asProblem(rotate.error).field('overlapSeconds') : [];

  const submitRotate = (event: FormEvent) => {
    event.preventDefault();
    rotate.mutate();
  };

  const anyAction = [WEBHOOK_PERMISSIONS.deliveryCreate, WEBHOOK_PERMISSIONS.update, WEBHOOK_PERMISSIONS.manage, WEBHOOK_PERMISSIONS.delete].some(can);

  return (
    <div className="wh-actions">
      <div className="wh-toolbar" role="group" aria-label="Subscription actions" hidden={!anyAction}>
        {can(WEBHOOK_PERMISSIONS.deliveryCreate) ? (
          <button type="button" onClick={() => ping.mutate()} disabled={ping.isPending}>
            {ping.isPending ? 'Pinging…' : 'Send ping'}
          </button>
        ) : null}
        {can(WEBHOOK_PERMISSIONS.update) ? (
          <button type="button" className="secondary" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
            {toggle.isPending ? 'Saving…' : subscription.isActive ? 'Deactivate' : 'Activate'}
          </button>
        ) : null}
        {can(WEBHOOK_PERMISSIONS.manage) ? (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              rotate.reset();
              setDialog('rotate');
            }}
          >
            Rotate secret
          </button>
        ) : null}
        {can(WEBHOOK_PERMISSIONS.delete) ? (
          <button
            type="button"
            className="danger"
            onClick={() => {
              remove.reset();
              setDialog('delete');
            }}
          >
            Delete
          </button>
        ) : null}
      </div>

      {ping.data ? <PingOutcome result={ping.data} /> : null}
      <ProblemMessage error={ping.error} title="The ping was not sent" />
      <ProblemMessage error={toggle.error} title={subscription.isActive ? 'Not deactivated' : 'Not activated'} />

      <Dialog open={dialog === 'rotate'} title="Rotate the signing secret" onClose={closeDialog}>
        <form noValidate onSubmit={submitRotate}>
          <p>
            A new secret signs every delivery from now on; it is shown once. The current secret keeps signing too for the overlap below, so receivers can switch
            without missing a delivery.
          </p>
          <Field
            label="Overlap in seconds"
            errors={overlapErrors}
            hint="0..2592000 (30 days); 0 drops the old secret at once; empty: the platform default (a day unless configured)."
          >
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                aria-invalid={overlapErrors.length > 0}
                type="number"
                min={0}
                className="wh-narrow"
                value={overlap}
                onChange={(event) => setOverlap(event.target.value)}
              />
            )}
          </Field>
          <ProblemMessage error={rotate.error} title="The secret was not rotated" />
          <div className="wh-toolbar">
            <button type="submit" disabled={rotate.isPending}>
              {rotate.isPending ? 'Rotating…' : 'Rotate'}
            </button>
            <button type="button" className="secondary" data-autofocus onClick={closeDialog}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>

      <Dialog open={dialog === 'delete'} title="Delete this subscription?" onClose={closeDialog}>
        <p>
          <code>{subscription.callbackUrl}</code> stops receiving events, and its pending deliveries are cancelled. Its delivery log and dead letters are kept
          until retention removes them. This cannot be undone.
        </p>
        <ProblemMessage error={remove.error} title="Not deleted" />
        <div className="wh-toolbar">
          <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting…' : 'Delete subscription'}
          </button>
          <button type="button" className="secondary" data-autofocus onClick={closeDialog}>
            Cancel
          </button>
        </div>
      </Dialog>
    </div>
  );
}

/** The ping's one attempt: 200 from the API even when the receiver failed, so `succeeded` decides. */
function PingOutcome({ result }: { result: PingResult }) {
  return (
    <div className={result.succeeded ? 'success' : 'problem'} role="status">
      <strong>{result.succeeded ? 'Ping succeeded' : 'Ping failed'}</strong>: {answerText(result.httpStatusCode, result.errorCode)} in {result.latencyMs} ms
      {result.errorMessage ? ` · ${result.errorMessage}` : ''}
      <br />
      <small>
        Delivery <code>{result.deliveryId}</code> ({result.eventType}) is in the delivery log.
      </small>
    </div>
  );
}
