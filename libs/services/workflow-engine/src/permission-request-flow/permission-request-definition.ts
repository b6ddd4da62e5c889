/**
 * The roles whose members approve permission requests: `permission-approver` (a role a tenant
 * creates and assigns; its members also need `workflow.task.view` and `workflow.task.approve` /
 * `workflow.task.reject` to act on the task), and the administrators every tenant gets from its
 * bootstrap (`tenant-admin`) or the platform tenant's seed (`platform-admin`). A role the tenant
 * does not have has no members.
 */
export const PERMISSION_APPROVER_ROLES = ['permission-approver', 'tenant-admin', 'platform-admin'] as const;

/**
 * The definition the engine publishes for a tenant the first time one of its permission requests
 * needs it (docs/permission-request-flow.md). One approval, the first approver's vote decides; the
 * approvers are a variable set at start (the roles' members without the requester), so the
 * requester never gets the task. A tenant may publish its own version of the key over it: the
 * active binding wins.
 */
export const PERMISSION_REQUEST_DEFINITION = {
  name: 'Permission request',
  description: 'A user asks for permission codes for a while; one approver (never the requester) approves or rejects. Approval creates the temporary grant.',
  variables: [
    { name: 'requestId', type: 'string', description: 'The permission request (also the business key)' },
    { name: 'requester', type: 'subject', description: 'Who asked; never an approver' },
    { name: 'permissionCodes', type: 'object', description: 'The codes asked for' },
    { name: 'durationSeconds', type: 'number', description: 'How long the grant runs from its approval' },
    { name: 'reason', type: 'string' },
    { name: 'approvers', type: 'subjects', description: 'Members of the approver roles, without the requester' },
  ],
  nodes: [
    {
      kind: 'approval',
      key: 'approve',
      name: 'Approve the permission request',
      mode: 'any',
      assignees: [{ kind: 'variable', variable: 'approvers' }],
      emptyAssignee: 'error',
    },
  ],
} as const satisfies Record<string, unknown>;
