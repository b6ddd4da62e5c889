import { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@lp/contracts';

/** What the log reads of a runtime event's payload (every runtime event names its instance). */
interface RuntimePayload {
  instanceId: string;
  taskId?: string;
  nodeKey?: string;
  by?: string;
  decidedBy?: string | null;
  initiator?: string;
  from?: unknown;
  reason?: string | null;
}

/** Events whose task was closed by the action they report, with the actor's comment on it. */
const CLOSES_TASK = new Set([
  'workflow.task.completed',
  'workflow.task.transferred',
  'workflow.task.delegated',
  'workflow.task.returned',
  'workflow.task.participants-added',
  'workflow.task.proxy-completed',
]);

/** Hand-overs name the assignee who handed the task on as `from` (a delegate's return: the delegate who acted). */
const HANDED_OVER_BY_FROM = new Set(['workflow.task.transferred', 'workflow.task.delegated', 'workflow.task.returned']);

/**
 * The subject who caused an event, as its payload names them: `by` for operations, `decidedBy` for
 * votes and ends, the initiator for a start, `from` for a hand-over. Null for the engine's own steps
 * (a task opening, a cc notice, an end no vote caused).
 */
export function actorOfEvent(type: string, payload: RuntimePayload): string | null {
  if (typeof payload.by === 'string') return payload.by;
  if (typeof payload.decidedBy === 'string') return payload.decidedBy;
  if (type === 'workflow.instance.started' && typeof payload.initiator === 'string') return payload.initiator;
  if (HANDED_OVER_BY_FROM.has(type) && typeof payload.from === 'string') return payload.from;
  return null;
}

/**
 * Appends runtime events to `workflow.instance_event` (docs/history.md), through the manager of the
 * change the event reports, so the row commits or rolls back with it and with its outbox row. The
 * caller holds the instance's row lock (every runtime write takes it first), which makes the next
 * `seq` (`max + 1`) safe; the primary key (tenant, instance, seq) is the backstop. The comment is
 * the one the actor left on the task the event closed (already written in this transaction), or the
 * operation's `reason`.
 */
export class InstanceEventLog {
  async append(manager: EntityManager, envelope: EventEnvelope, actor?: string): Promise<void> {
    const payload = envelope.payload as RuntimePayload;
    const type = envelope.eventType;
    const rows: Array<{ seq: number }> = await manager.query(
      `INSERT INTO "workflow"."instance_event"
         ("tenant_id", "instance_id", "seq", "event_id", "event_type", "actor", "task_id", "node_key", "comment", "business_key", "definition_key", "payload", "occurred_at")
       SELECT i."tenant_id", i."id",
              coalesce((SELECT max(e."seq") FROM "workflow"."instance_event" e WHERE e."tenant_id" = i."tenant_id" AND e."instance_id" = i."id"), 0) + 1,
              $3, $4, $5, $6::uuid, $7,
              CASE WHEN $8::boolean THEN (SELECT t."comment" FROM "workflow"."task" t WHERE t."tenant_id" = i."tenant_id" AND t."id" = $6::uuid) ELSE $9 END,
              i."business_key", i."definition_key", $10::jsonb, $11
         FROM "workflow"."instance" i WHERE i."tenant_id" = $1 AND i."id" = $2
       RETURNING "seq"`,
      [
        envelope.tenantId,
        payload.instanceId,
        envelope.eventId,
        type,
        actor ?? actorOfEvent(type, payload),
        payload.taskId ?? null,
        payload.nodeKey ?? null,
        CLOSES_TASK.has(type) && payload.taskId !== undefined,
        typeof payload.reason === 'string' ? payload.reason : null,
        JSON.stringify(payload),
        envelope.occurredAt,
      ],
    );
    if (rows.length !== 1) throw new Error(`event ${type}: instance ${payload.instanceId} is not in the hot store of tenant ${envelope.tenantId}`);
  }
}
