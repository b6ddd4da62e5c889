import { DataSource } from 'typeorm';
import { AuthorizationAction, AuthzRpc, MessageOf } from '@lp/contracts';
import { deleteBrokerObjects } from '@lp/platform/testing';

/**
 * What the decision RPC benches share: the question they ask, the policy that makes it a Permit,
 * the echo floor's payload, and the cleanup of the names a run used.
 */

/** The floor's payload (`rpc-echo.bench.ts`). */
export const ECHO_PAYLOAD = {
  caller: { kind: 'user', subject: 'alice', tenantId: 'bench', scopes: [], claimsDigest: 'alice-v1' },
  payload: { action: 'View', resource: { module: 'cases', resourceType: 'case', resourceId: 'c-1' } },
};

const ROLE_ID = '00000000-0000-0000-0000-0000000000a1';

/** Asked again and again: a Permit through one role, answered from the cache after the first. */
export const BENCH_DECISION_MESSAGE: MessageOf<typeof AuthzRpc.decide> = {
  caller: { kind: 'user', subject: 'alice', tenantId: 'acme', scopes: [], claimsDigest: 'alice-v1' },
  payload: { action: AuthorizationAction.View, resource: { module: 'cases', resourceType: 'case', resourceId: 'c-1' } },
};

/** One permission, one role holding it, bound to `alice` in tenant `acme` (policy-management's DataSource: it owns `authz`). */
export async function seedBenchPolicy(sql: DataSource): Promise<void> {
  await sql.query(`INSERT INTO authz.permission (code, module, resource, action) VALUES ('cases.case.view', 'cases', 'case', 'View') ON CONFLICT DO NOTHING`);
  await sql.query(`INSERT INTO authz.role (id, tenant_id, name, data_scope) VALUES ('${ROLE_ID}', 'acme', 'clerk', 'tenant')`);
  await sql.query(`INSERT INTO authz.role_permission (tenant_id, role_id, role_name, permission_id, permission_code, module, created_by)
    SELECT r.tenant_id, r.id, r.name, p.id, p.code, p.module, 'bench'
    FROM authz.role r JOIN authz.permission p ON p.code = 'cases.case.view' WHERE r.id = '${ROLE_ID}'`);
  await sql.query(`INSERT INTO authz.user_role (tenant_id, subject, role_id, role_name, created_by) VALUES ('acme', 'alice', '${ROLE_ID}', 'clerk', 'bench')`);
}

/**
 * Deletes every queue and exchange under the bench's own AMQP prefix (RPC queues, service and dead
 * letter queues, the events exchanges, an echo server's queue): a bench leaves nothing on the broker.
 */
export async function deleteTopology(url: string, prefix: string): Promise<void> {
  await deleteBrokerObjects(url, prefix);
}
