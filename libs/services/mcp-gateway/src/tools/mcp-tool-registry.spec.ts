import { z } from 'zod';
import { AuthorizationAction, type DecisionReply, type TrustedCaller } from '@lp/contracts';
import type { RpcClient } from '@lp/platform/messaging';
import type { PlatformConfig } from '@lp/platform/runtime';
import { defineTool } from './mcp-tool';
import { McpToolRegistry, toolListing } from './mcp-tool-registry';
import { MCP_TOOLS } from './mcp-tools';

const caller: TrustedCaller = { kind: 'user', subject: 'u1', tenantId: 't1', scopes: [], claimsDigest: 'd' };
const platform = { AUTHZ_DECISION_TIMEOUT_MS: 1000 } as PlatformConfig;

function reply(permitted: boolean): DecisionReply {
  return {
    outcome: permitted ? 'Permit' : 'Deny',
    permitted,
    decisionId: 'x',
    obligations: [],
    dataScope: { kind: 'tenant', tenantId: 't1' },
    cached: false,
  };
}

/** A registry over the real catalog whose batch decision permits the listed codes. */
function registryPermitting(codes: string[] | Error) {
  const asked: unknown[] = [];
  const rpc = {
    call: async (
      contract: { pattern: string },
      message: { caller: TrustedCaller; payload: { requests: Array<{ resource: { module: string; resourceType: string }; action: string }> } },
    ) => {
      asked.push({ pattern: contract.pattern, message });
      if (codes instanceof Error) throw codes;
      return message.payload.requests.map((r) => reply(codes.includes(`${r.resource.module}.${r.resource.resourceType}.${r.action.toLowerCase()}`)));
    },
  } as unknown as RpcClient;
  return { registry: new McpToolRegistry(MCP_TOOLS, rpc, platform), asked };
}

const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name);

describe('McpToolRegistry.listFor', () => {
  it('lists every tool to a caller holding every permission, from one batch as the caller', async () => {
    const { registry, asked } = registryPermitting([
      'cases.case.create',
      'cases.case.view',
      'operations.jobs.view',
      'operations.jobs.manage',
      'workflow.task.view',
      'workflow.task.approve',
      'workflow.task.reject',
      'workflow.instance.create',
      'webhooks.subscription.view',
    ]);
    expect(names(await registry.listFor(caller))).toEqual([
      'create_litigation_case',
      'get_case_by_id',
      'get_my_permissions',
      'check_authorization',
      'list_jobs',
      'run_job',
      'list_my_workflow_tasks',
      'approve_workflow_task',
      'reject_workflow_task',
      'start_workflow',
      'list_webhook_subscriptions',
    ]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ pattern: 'authz.decide-batch', message: { caller } });
    // One question per distinct permission, no instance.
    expect((asked[0] as { message: { payload: { requests: unknown[] } } }).message.payload.requests).toHaveLength(9);
  });

  it('shows a caller with only cases.case.view the read tool and the always-listed ones', async () => {
    const { registry } = registryPermitting(['cases.case.view']);
    expect(names(await registry.listFor(caller))).toEqual(['get_case_by_id', 'get_my_permissions', 'check_authorization']);
  });

  it('fails closed: no batch answer hides every permission-gated tool', async () => {
    const { registry } = registryPermitting(new Error('authz.decide-batch timed out'));
    expect(names(await registry.listFor(caller))).toEqual(['get_my_permissions', 'check_authorization']);
  });

  it('refuses two tools with one name', () => {
    const rpc = {} as RpcClient;
    expect(() => new McpToolRegistry([MCP_TOOLS[0]!, MCP_TOOLS[0]!], rpc, platform)).toThrow(/declared twice/);
  });
});

describe('tool declarations', () => {
  it('refuses a name that is not snake_case and a malformed permission', () => {
    const base = {
      title: 't',
      description: 'd',
      input: z.strictObject({}),
      output: z.object({}),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: async () => ({}),
    };
    expect(() => defineTool({ ...base, name: 'Bad-Name', requires: [] })).toThrow(/snake_case/);
    expect(() => defineTool({ ...base, name: 'ok_name', requires: [{ module: 'Bad Module', resource: 'x', action: AuthorizationAction.View }] })).toThrow();
  });

  it.each(MCP_TOOLS.map((t) => [t.name, t] as const))('%s lists object schemas (draft-07) and every annotation', (_name, tool) => {
    const listing = toolListing(tool);
    expect(listing.inputSchema.type).toBe('object');
    expect(listing.outputSchema?.type).toBe('object');
    expect(listing.inputSchema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(Object.keys(listing.annotations ?? {}).sort()).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title']);
    // A read-only tool is never destructive.
    if (tool.annotations.readOnlyHint) expect(tool.annotations.destructiveHint).toBe(false);
  });

  it('shows the case rules in the JSON Schema: ClaimAmount strictly positive, CaseType enumerated', () => {
    const schema = toolListing(MCP_TOOLS[0]!).inputSchema as unknown as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(schema.properties['ClaimAmount']).toMatchObject({ type: 'number', exclusiveMinimum: 0 });
    expect(schema.properties['CaseType']?.['enum']).toContain('civil');
    expect(schema.required.sort()).toEqual(['CaseTitle', 'CaseType', 'ClaimAmount', 'DefendantName']);
    expect(schema.additionalProperties).toBe(false);
  });
});
