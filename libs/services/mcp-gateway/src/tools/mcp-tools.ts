import { checkAuthorizationTool, getMyPermissionsTool } from './authorization.tools';
import { createLitigationCaseTool, getCaseByIdTool } from './case.tools';
import { AnyMcpTool } from './mcp-tool';
import { listJobsTool, runJobTool } from './operations.tools';
import { approveWorkflowTaskTool, listMyWorkflowTasksTool, rejectWorkflowTaskTool, startWorkflowTool } from './workflow.tools';

/**
 * The gateway's tool catalog, in the order tools/list shows it. Planned, one declaration when its
 * service exists: list webhook subscriptions (webhook-dispatcher).
 */
export const MCP_TOOLS: readonly AnyMcpTool[] = [
  createLitigationCaseTool,
  getCaseByIdTool,
  getMyPermissionsTool,
  checkAuthorizationTool,
  listJobsTool,
  runJobTool,
  listMyWorkflowTasksTool,
  approveWorkflowTaskTool,
  rejectWorkflowTaskTool,
  startWorkflowTool,
];
