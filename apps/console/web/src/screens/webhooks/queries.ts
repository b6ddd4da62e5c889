import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '../../api/client';
import { useSession } from '../../api/session';
import { DeadLetter, Delivery, DeliveryStatus, EventTypeFamily, isUnderway, Subscription } from './types';

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

/** `GET /api/webhooks/deliveries?subscriptionId=`: a subscription's deliveries, newest first, each with its status and attempts. */
export function useDeliveryPage(subscriptionId: string, pageIndex: number, status: DeliveryStatus | undefined) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...WEBHOOKS, 'deliveries', subscriptionId, { pageIndex, status }],
    queryFn: ({ signal }) => api.get<Page<Delivery>>('/api/webhooks/deliveries', { subscriptionId, status, pageIndex, pageSize: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
    /** While the dispatcher works on one of them, the page is looked at again. */
    refetchInterval: (query: { state: { data?: Page<Delivery> } }) => (query.state.data?.items.some((d) => isUnderway(d.status)) ? 1500 : false),
  });
}

export function deliveryQuery(api: ReturnType<typeof useSession>['api'], deliveryId: string) {
  return {
    queryKey: [...WEBHOOKS, 'delivery', deliveryId],
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Delivery>(`/api/webhooks/deliveries/${encodeURIComponent(deliveryId)}`, undefined, signal),
    /** A delivery underway is looked at again until it ends (the dispatcher works on it meanwhile). */
    refetchInterval: (query: { state: { data?: Delivery } }) => (query.state.data && isUnderway(query.state.data.status) ? 1500 : false),
  } as const;
}

/** `GET /api/webhooks/event-types`: the families a subscription may name (the same for every tenant). */
export function useEventTypeFamilies() {
  const { api } = useSession();
  return useQuery({
    queryKey: [...WEBHOOKS, 'event-types'],
    queryFn: ({ signal }) => api.get<{ items: EventTypeFamily[] }>('/api/webhooks/event-types', undefined, signal),
    staleTime: Infinity,
  });
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
