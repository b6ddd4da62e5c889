import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { FleetService, type TrustedCaller } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { mcpToolCallDuration } from '@lp/platform/observability';
import { McpGatewayConfig, mcpGatewayConfig } from '../mcp-gateway.config';
import type { ToolOutcome } from '../tools/tool-outcome';
import { ToolCallAuditEntity } from './tool-call-audit.entity';

export interface ToolCallRecord {
  caller: TrustedCaller;
  tool: string;
  outcome: ToolOutcome;
  errorCode?: string;
  latencyMs: number;
  correlationId?: string;
  /** False for a name no tool has: the metric then labels it `(unknown)`, keeping its cardinality bounded. */
  toolKnown: boolean;
}

const TOOL_COLUMN = 100;

/** Rows written in one INSERT at most. */
const MAX_BATCH = 200;

type AuditRow = Omit<ToolCallAuditEntity, 'id' | 'createdAt'> & { createdAt: Date };

/**
 * Records every tools/call three ways: a row in `mcp.tool_call_audit`, one structured log line, and
 * the `mcp_tool_call_duration_seconds` histogram. Rows are buffered and written together, every
 * MCP_AUDIT_FLUSH_MS or every MAX_BATCH rows, never awaited by the call: an audit outage must neither
 * fail nor slow a tool call, so a failed write is logged (the log lines carry the same facts), and
 * one INSERT per batch instead of per call keeps the audit off the request's CPU. The buffer is
 * written at shutdown; `flush()` writes it at once (tests read the table after it).
 */
@Injectable()
export class ToolCallAudit implements OnApplicationShutdown {
  private readonly logger = new Logger(ToolCallAudit.name);
  private buffer: AuditRow[] = [];
  private timer?: NodeJS.Timeout;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    @InjectRepository(ToolCallAuditEntity) private readonly rows: Repository<ToolCallAuditEntity>,
    @InjectConfig(mcpGatewayConfig) private readonly config: McpGatewayConfig,
  ) {}

  record(record: ToolCallRecord): void {
    const { caller, outcome, latencyMs } = record;
    const tool = record.tool.slice(0, TOOL_COLUMN);
    // The caller's identity, never its token; a refused argument's value is not logged either.
    this.logger.log(
      {
        tenantId: caller.tenantId,
        subject: caller.subject,
        actor: caller.actor,
        clientId: caller.clientId,
        tool,
        outcome,
        errorCode: record.errorCode,
        latencyMs: Math.round(latencyMs),
        correlationId: record.correlationId,
      },
      'mcp tool call',
    );
    mcpToolCallDuration.observe({ service: FleetService.mcpGateway, tool: record.toolKnown ? tool : '(unknown)', outcome }, latencyMs / 1000);
    this.buffer.push({
      tenantId: caller.tenantId,
      subject: caller.subject,
      actor: caller.actor ?? null,
      clientId: caller.clientId ?? null,
      tool,
      outcome,
      errorCode: record.errorCode ?? null,
      latencyMs: Math.max(0, Math.round(latencyMs)),
      correlationId: record.correlationId ?? null,
      // The call's own time, not the batch's.
      createdAt: new Date(),
    });
    if (this.buffer.length >= MAX_BATCH) this.write();
    else this.timer ??= setTimeout(() => this.write(), this.config.MCP_AUDIT_FLUSH_MS);
  }

  /** Resolves once every row recorded so far is written (or its failure logged). */
  async flush(): Promise<void> {
    this.write();
    await Promise.all([...this.pending]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  private write(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    const write = this.rows.insert(batch).then(
      () => undefined,
      (error: unknown) => {
        this.logger.error({ rows: batch.length, err: error instanceof Error ? error.message : String(error) }, 'tool call audit rows not written');
      },
    );
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }
}
