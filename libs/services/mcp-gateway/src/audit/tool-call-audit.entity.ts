import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ToolOutcome } from '../tools/tool-outcome';

/** One tools/call through the gateway (`mcp.tool_call_audit`): who, which tool, how it ended, how long it took. */
@Entity({ schema: 'mcp', name: 'tool_call_audit' })
@Index('ix_tool_call_audit_tenant_time', ['tenantId', 'createdAt'])
export class ToolCallAuditEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId!: string;

  /** The caller the call was made as (`sub`; the client id for applications). */
  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  /** The acting subject of a delegated caller (RFC 8693 `act`). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  actor!: string | null;

  @Column({ name: 'client_id', type: 'varchar', length: 255, nullable: true })
  clientId!: string | null;

  /** The tool name as the client sent it (an unknown name is audited too, cut to the column). */
  @Column({ type: 'varchar', length: 100 })
  tool!: string;

  @Column({ type: 'varchar', length: 16 })
  outcome!: ToolOutcome;

  @Column({ name: 'error_code', type: 'varchar', length: 100, nullable: true })
  errorCode!: string | null;

  @Column({ name: 'latency_ms', type: 'integer' })
  latencyMs!: number;

  @Column({ name: 'correlation_id', type: 'varchar', length: 128, nullable: true })
  correlationId!: string | null;

  /** When the call ended (set by the writer: rows are written in batches, after the call). */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
