import { checkAuthorizationTool, getMyPermissionsTool } from './authorization.tools';
import { createLitigationCaseTool, getCaseByIdTool } from './case.tools';
import { AnyMcpTool } from './mcp-tool';
import { listJobsTool, runJobTool } from './operations.tools';

/**
 * The gateway's tool catalog, in the order tools/list shows it. Planned, one declaration each when
 * their services exist: my todo tasks, approve/reject a task, start a workflow (workflow-engine),
 * list webhook subscriptions (webhook-dispatcher).
 */
export const MCP_TOOLS: readonly AnyMcpTool[] = [
  createLitigationCaseTool,
  getCaseByIdTool,
  getMyPermissionsTool,
  checkAuthorizationTool,
  listJobsTool,
  runJobTool,
];
