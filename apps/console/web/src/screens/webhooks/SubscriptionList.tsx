import { FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { asProblem } from '../../api/problem';
import { useSyncedDraft } from '../../ui/use-synced-draft';
import { useSession } from '../../api/session';
import { Busy, Field, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { ActiveBadge, pageParam, retriesText } from './format';
import { WEBHOOK_PERMISSIONS } from './permissions';
import { SubscriptionFilter, useSubscriptionPage } from './queries';

/** The tenant's subscriptions, a page at a time, filtered by state and by an event type they would receive. */
export function SubscriptionList() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const [params, setParams] = useSearchParams();
  const active = params.get('isActive');
  const filter: SubscriptionFilter = {
    pageIndex: pageParam(params.get('page')),
    isActive: active === 'true' || active === 'false' ? active : undefined,
    eventType: params.get('eventType') ?? undefined,
  };
  const applied = { isActive: filter.isActive ?? '', eventType: filter.eventType ?? '' };
  // The fields follow the address when it changes under them (a link, a tab, the back button).
  const [draft, setDraft] = useSyncedDraft(applied, params.toString());
  const page = useSubscriptionPage(filter);
  const problem = page.error ? asProblem(page.error) : undefined;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (draft.isActive) next.set('isActive', draft.isActive);
    if (draft.eventType.trim()) next.set('eventType', draft.eventType.trim());
    setParams(next);
  };
  const goTo = (pageIndex: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('page', String(pageIndex));
      return next;
    });

  return (
    <section aria-labelledby="wh-subscriptions">
      <div className="wh-heading">
        <h2 id="wh-subscriptions">Subscriptions</h2>
        {session.canAny([WEBHOOK_PERMISSIONS.create]) ? (
          <button type="button" onClick={() => void navigate('/webhooks/new')}>
            Add subscription
          </button>
        ) : null}
      </div>
      {notice ? (
        <p className="success" role="status">
          {notice}
        </p>
      ) : null}
      <form className="form-row wh-filters" onSubmit={apply} aria-label="Filter subscriptions">
        <Field label="State">
          {(id) => (
            <select id={id} value={draft.isActive} onChange={(event) => setDraft({ ...draft, isActive: event.target.value })}>
              <option value="">All</option>
              <option value="true">Active</option>
              <option value="false">Inactive</option>
            </select>
          )}
        </Field>
        <Field label="Receives event type" errors={problem?.field('eventType')} hint="A concrete type, e.g. ticket.created">
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={(problem?.field('eventType').length ?? 0) > 0}
              value={draft.eventType}
              spellCheck={false}
              onChange={(event) => setDraft({ ...draft, eventType: event.target.value })}
            />
          )}
        </Field>
        <div className="field wh-filter-submit">
          <button type="submit" className="secondary">
            Apply filters
          </button>
        </div>
      </form>
      {page.isFetching ? <Busy label="Loading subscriptions…" /> : null}
      <ProblemMessage error={page.error} />
      {page.data ? (
        page.data.items.length === 0 ? (
          <p className="notice">
            {filter.isActive || filter.eventType
              ? 'No subscription matches these filters.'
              : 'No subscription yet: add one to receive events at your endpoint.'}
          </p>
        ) : (
          <table>
            <caption className="wh-caption">Subscriptions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Callback URL</th>
                <th scope="col">Event types</th>
                <th scope="col">Description</th>
                <th scope="col">State</th>
                <th scope="col">Retries</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {page.data.items.map((subscription) => (
                <tr key={subscription.id}>
                  <td className="wh-url">
                    <Link to={`/webhooks/subscriptions/${subscription.id}`}>{subscription.callbackUrl}</Link>
                  </td>
                  <td>
                    {subscription.eventTypes.map((pattern) => (
                      <code key={pattern} className="wh-pattern">
                        {pattern}
                      </code>
                    ))}
                  </td>
                  <td>{subscription.description ?? '—'}</td>
                  <td>
                    <ActiveBadge subscription={subscription} />
                  </td>
                  <td>{retriesText(subscription)}</td>
                  <td>
                    {formatTime(subscription.createdAt)}
                    <br />
                    <small>by {subscription.createdBy}</small>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      <Pager page={page.data} onPage={goTo} label="Subscriptions" />
    </section>
  );
}
