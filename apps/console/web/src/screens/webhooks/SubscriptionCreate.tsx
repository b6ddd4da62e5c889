import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../api/session';
import { SecretOnce } from './SecretOnce';
import { createBodyOf, EMPTY_FORM, SubscriptionForm, SubscriptionFormValues } from './SubscriptionForm';
import { WEBHOOKS } from './queries';
import type { Subscription, SubscriptionWithSecret } from './types';

/** `POST /api/webhooks/subscriptions`, then its signing secret, shown this once. */
export function SubscriptionCreate() {
  const { api } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The created subscription and its secret live here only: leaving this page forgets the secret.
  const [created, setCreated] = useState<SubscriptionWithSecret | undefined>();
  const create = useMutation({
    mutationFn: (values: SubscriptionFormValues) => api.post<SubscriptionWithSecret>('/api/webhooks/subscriptions', createBodyOf(values)),
    // Nothing keeps the answer (it carries the secret) once this page is gone.
    gcTime: 0,
    onSuccess: (answer) => {
      const { secret: _secret, ...subscription } = answer;
      // The cache gets the subscription without its secret.
      queryClient.setQueryData<Subscription>([...WEBHOOKS, 'subscription', answer.id], subscription);
      void queryClient.invalidateQueries({ queryKey: [...WEBHOOKS, 'subscriptions'] });
      setCreated(answer);
    },
  });

  if (created) {
    return (
      <section aria-labelledby="wh-created">
        <h2 id="wh-created">Subscription created</h2>
        <p className="success">
          <code>{created.callbackUrl}</code> now receives {created.eventTypes.join(', ')}
          {created.isActive ? '.' : ' once it is activated.'}
        </p>
        <SecretOnce secret={created.secret} title="Its signing secret" />
        <div className="wh-toolbar">
          <Link className="wh-button-link" to={`/webhooks/subscriptions/${created.id}`}>
            Open the subscription
          </Link>
          <Link className="wh-button-link secondary" to="/webhooks">
            Back to the list
          </Link>
        </div>
      </section>
    );
  }

  return (
    <section aria-labelledby="wh-create">
      <h2 id="wh-create">Add a subscription</h2>
      <SubscriptionForm
        initial={EMPTY_FORM}
        withActive
        submitLabel="Create subscription"
        busyLabel="Creating…"
        busy={create.isPending}
        error={create.error}
        onSubmit={(values) => create.mutate(values)}
        onCancel={() => void navigate('/webhooks')}
      />
    </section>
  );
}
