import { DecisionReply, DecisionResult } from '@lp/contracts';

/**
 * The `authz.decide` reply of a decision: what a guard acts on (outcome, id, DataScope, failure,
 * refusal, grant expiry, obligations), and the per-evaluator reasons only when asked for. The full
 * result stays in the audit record; a lean reply is a third of the bytes to serialize, carry and
 * parse on every guarded call. Built field by field: it runs once per decision.
 */
export function decisionReplyOf(result: DecisionResult, withReasons: boolean): DecisionReply {
  const reply: DecisionReply = {
    outcome: result.outcome,
    permitted: result.permitted,
    decisionId: result.decisionId,
    dataScope: result.dataScope,
    obligations: result.obligations,
    cached: result.cached,
  };
  if (result.failure !== undefined) reply.failure = result.failure;
  if (result.reason !== undefined) reply.reason = result.reason;
  if (result.validUntil !== undefined) reply.validUntil = result.validUntil;
  if (withReasons) reply.evaluations = result.evaluations;
  return reply;
}
