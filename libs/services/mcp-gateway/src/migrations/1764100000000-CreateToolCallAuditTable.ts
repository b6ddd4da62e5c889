import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `mcp.tool_call_audit`: one row per tools/call (ToolCallAuditEntity). "Stateless" in ARCHITECTURE's
 * fleet table is about MCP sessions (none are kept); the audit is the gateway's only table. Read by
 * tenant and time, purged by time (`mcp-gateway.tool-call-audit-retention`).
 */
export class CreateToolCallAuditTable1764100000000 implements MigrationInterface {
  name = 'CreateToolCallAuditTable1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS "mcp"`);
    await q.query(`
      CREATE TABLE "mcp"."tool_call_audit" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "tenant_id" varchar(64) NOT NULL,
        "subject" varchar(255) NOT NULL,
        "actor" varchar(255),
        "client_id" varchar(255),
        "tool" varchar(100) NOT NULL,
        "outcome" varchar(16) NOT NULL,
        "error_code" varchar(100),
        "latency_ms" integer NOT NULL,
        "correlation_id" varchar(128),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "ck_tool_call_audit_outcome" CHECK ("outcome" IN ('succeeded', 'invalid', 'denied', 'not_found', 'failed', 'rate_limited')),
        CONSTRAINT "ck_tool_call_audit_latency" CHECK ("latency_ms" >= 0)
      )`);
    await q.query(`CREATE INDEX "ix_tool_call_audit_tenant_time" ON "mcp"."tool_call_audit" ("tenant_id", "created_at")`);
    await q.query(`CREATE INDEX "ix_tool_call_audit_time" ON "mcp"."tool_call_audit" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "mcp"."tool_call_audit"`);
  }
}
