/**
 * The approval of permission requests on the workflow engine (policy-management
 * docs/permission-requests.md, workflow-engine docs/permission-request-flow.md): both services
 * name the definition and the instance variables the same way.
 */
export const PERMISSION_REQUEST_DEFINITION_KEY = 'permission-request';

/** The variables an instance of `permission-request` starts with. */
export interface PermissionRequestFlowVariables {
  requestId: string;
  requester: string;
  permissionCodes: string[];
  durationSeconds: number;
  reason: string;
  /** Who may approve: the approver roles' members, never the requester (four eyes). */
  approvers: string[];
}
