import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '../../api/client';
import { useSession } from '../../api/session';
import type { DeadLetter, Delivery, DeliveryAttempt, Subscription } from './types';

/** Every query of this screen starts with `webhooks`: a write invalidates them all at once. */
export const WEBHOOKS = ['webhooks'] as const;

export const PAGE_SIZE = 20;

export interface SubscriptionFilter {
  pageIndex: number;
  isActive?: 'true' | 'false';
  eventType?: string;
}

/** `GET /api/webhooks/subscriptions`: a page, newest first, filtered by state and by an event type they would receive. */
export function useSubscriptionPage(filter: SubscriptionFilter) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...WEBHOOKS, 'subscriptions', filter],
    queryFn: ({ signal }) => api.get<Page<Subscription>>('/api/webhooks/subscriptions', { ...filter, pageSize: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/webhooks/subscriptions/{id}` (never the secret: only its fingerprint). */
export function useSubscription(id: string) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...WEBHOOKS, 'subscription', id],
    queryFn: ({ signal }) => api.get<Subscription>(`/api/webhooks/subscriptions/${encodeURIComponent(id)}`, undefined, signal),
  });
}

/** `GET /api/webhooks/subscriptions/{id}/deliveries`: the log, one entry per attempt, newest first. */
export function useDeliveryAttempts(subscriptionId: string, pageIndex: number, deliveryId: string | undefined, refetchMs: () => number | false) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...WEBHOOKS, 'attempts', subscriptionId, { pageIndex, deliveryId }],
    queryFn: ({ signal }) =>
      api.get<Page<DeliveryAttempt>>(
        `/api/webhooks/subscriptions/${encodeURIComponent(subscriptionId)}/deliveries`,
        { pageIndex, pageSize: PAGE_SIZE, deliveryId },
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: () => refetchMs(),
  });
}

export function deliveryQuery(api: ReturnType<typeof useSession>['api'], deliveryId: string) {
  return {
    queryKey: [...WEBHOOKS, 'delivery', deliveryId],
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Delivery>(`/api/webhooks/deliveries/${encodeURIComponent(deliveryId)}`, undefined, signal),
    /** A pending delivery is looked at again until it ends (the dispatcher works on it meanwhile). */
    refetchInterval: (query: { state: { data?: Delivery } }) => (query.state.data?.status === 'pending' ? 1500 : false),
  } as const;
}

/** `GET /api/webhooks/deliveries/{id}`: where one delivery stands (status, attempts, next attempt). */
export function useDelivery(deliveryId: string | undefined, enabled = true) {
  const { api } = useSession();
  return useQuery({ ...deliveryQuery(api, deliveryId ?? ''), enabled: enabled && deliveryId !== undefined });
}

export interface DeadLetterFilter {
  pageIndex: number;
  replayed?: 'true' | 'false';
  subscriptionId?: string;
}

/** `GET /api/webhooks/dead-letters`: newest first. */
export function useDeadLetterPage(filter: DeadLetterFilter) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...WEBHOOKS, 'dead-letters', filter],
    queryFn: ({ signal }) => api.get<Page<DeadLetter>>('/api/webhooks/dead-letters', { ...filter, pageSize: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/webhooks/dead-letters/{id}`. */
export function useDeadLetter(id: string) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...WEBHOOKS, 'dead-letter', id],
    queryFn: ({ signal }) => api.get<DeadLetter>(`/api/webhooks/dead-letters/${encodeURIComponent(id)}`, undefined, signal),
  });
}
