import { checkAuthorizationTool, getMyPermissionsTool } from './authorization.tools';
import { createLitigationCaseTool, getCaseByIdTool } from './case.tools';
import { AnyMcpTool } from './mcp-tool';
import { listJobsTool, runJobTool } from './operations.tools';
import { listWebhookSubscriptionsTool } from './webhook.tools';
import { approveWorkflowTaskTool, listMyWorkflowTasksTool, rejectWorkflowTaskTool, startWorkflowTool } from './workflow.tools';

/** The gateway's tool catalog, in the order tools/list shows it. */
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
  listWebhookSubscriptionsTool,
];
