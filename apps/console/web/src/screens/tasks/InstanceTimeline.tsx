import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { Busy, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { workflowQueries } from './workflow-api';

const TIMELINE_PAGE_SIZE = 10;

/** The instance's event log (`/history/instances/{id}/timeline`), oldest first, paged. */
export function InstanceTimeline({ instanceId }: { instanceId: string }) {
  const { api } = useSession();
  const [pageIndex, setPageIndex] = useState(0);
  const timeline = useQuery(workflowQueries.timeline(api, instanceId, pageIndex, TIMELINE_PAGE_SIZE));
  return (
    <>
      {timeline.isPending ? <Busy label="Loading the history…" /> : null}
      <ProblemMessage error={timeline.error} title="The history could not be read" />
      {timeline.data ? (
        <table className="timeline">
          <caption className="visually-hidden">Events of the instance, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Node</th>
              <th scope="col">By</th>
              <th scope="col">Comment</th>
            </tr>
          </thead>
          <tbody>
            {timeline.data.items.map((event) => (
              <tr key={event.seq}>
                <td>{event.seq}</td>
                <td>{formatTime(event.occurredAt)}</td>
                <td>
                  <code>{event.type.replace(/^workflow\./, '')}</code>
                  {typeof event.payload.to === 'string' ? ` → ${event.payload.to}` : ''}
                </td>
                <td>{event.nodeKey ?? '—'}</td>
                <td>{event.actor ?? 'engine'}</td>
                <td>{event.comment ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pager page={timeline.data} onPage={setPageIndex} label="History" />
    </>
  );
}
