import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { FleetService, type TrustedCaller } from '@lp/contracts';
import { mcpToolCallDuration } from '@lp/platform/observability';
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

/**
 * Records every tools/call three ways: a row in `mcp.tool_call_audit`, one structured log line, and
 * the `mcp_tool_call_duration_seconds` histogram. The row is written after the answer is decided and
 * not awaited by the call: an audit outage must neither fail nor slow a tool call, so a failed write
 * is logged (the log line carries the same facts). Writes in flight are awaited at shutdown.
 */
@Injectable()
export class ToolCallAudit implements OnApplicationShutdown {
  private readonly logger = new Logger(ToolCallAudit.name);
  private readonly pending = new Set<Promise<void>>();

  constructor(@InjectRepository(ToolCallAuditEntity) private readonly rows: Repository<ToolCallAuditEntity>) {}

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
        latencyMs,
        correlationId: record.correlationId,
      },
      'mcp tool call',
    );
    mcpToolCallDuration.observe({ service: FleetService.mcpGateway, tool: record.toolKnown ? tool : '(unknown)', outcome }, latencyMs / 1000);
    const write = this.rows
      .insert({
        tenantId: caller.tenantId,
        subject: caller.subject,
        actor: caller.actor ?? null,
        clientId: caller.clientId ?? null,
        tool,
        outcome,
        errorCode: record.errorCode ?? null,
        latencyMs: Math.max(0, Math.round(latencyMs)),
        correlationId: record.correlationId ?? null,
      })
      .then(
        () => undefined,
        (error: unknown) => {
          this.logger.error(
            { tool, outcome, correlationId: record.correlationId, err: error instanceof Error ? error.message : String(error) },
            'tool call audit row not written',
          );
        },
      );
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /** Resolves once every row recorded so far is written (or its failure logged). */
  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}
