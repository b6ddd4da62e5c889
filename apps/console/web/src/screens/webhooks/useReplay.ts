import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { WEBHOOKS } from './queries';
import type { DeadLetter } from './types';

/**
 * `POST /api/webhooks/dead-letters/{id}/replay`: the same delivery (same id) pending again, due now,
 * with a fresh retry budget. A second replay of one dead letter is the API's 409
 * `Webhook.DeadLetter.AlreadyReplayed`, shown in its own words like every problem.
 */
export function useReplay() {
  const { api } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deadLetter: Pick<DeadLetter, 'id'>) => api.post<DeadLetter>(`/api/webhooks/dead-letters/${encodeURIComponent(deadLetter.id)}/replay`),
    onSuccess: (answer) => queryClient.setQueryData([...WEBHOOKS, 'dead-letter', answer.id], answer),
    onSettled: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS }),
  });
}
