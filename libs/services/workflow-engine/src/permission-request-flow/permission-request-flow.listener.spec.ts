import { DomainError, PermissionRequestChangedPayload } from '@lp/contracts';
import { EventBus } from '@lp/platform/messaging';
import { PermissionRequestFlowListener } from './permission-request-flow.listener';
import { FiledPermissionRequest, PermissionRequestFlow } from './permission-request-flow.service';

const filed: PermissionRequestChangedPayload = {
  tenantId: 'acme',
  requestId: '7d2c3c1e-0c4f-4a57-9a43-4f0e7c4f2a11',
  subject: 'erin',
  status: 'pending',
  approval: 'workflow',
  permissionCodes: ['authorization.role.view'],
  durationSeconds: 60,
  reason: 'review',
};

describe('PermissionRequestFlowListener', () => {
  const begun: FiledPermissionRequest[] = [];
  const ended: string[] = [];
  let failure: Error | null = null;
  const flow = {
    begin: async (request: FiledPermissionRequest) => {
      if (failure) throw failure;
      begun.push(request);
      return { id: 'instance' };
    },
    end: async (_tenant: string, requestId: string, status: string) => {
      ended.push(`${requestId}:${status}`);
      return true;
    },
  } as unknown as PermissionRequestFlow;
  const listener = new PermissionRequestFlowListener({} as unknown as EventBus, flow);

  beforeEach(() => {
    begun.length = 0;
    ended.length = 0;
    failure = null;
  });

  it('starts the approval of a request filed for a workflow, with what the event carries', async () => {
    await expect(listener.handle(filed)).resolves.toBe('started');
    expect(begun).toEqual([
      {
        tenantId: 'acme',
        requestId: filed.requestId,
        subject: 'erin',
        status: 'pending',
        approval: 'workflow',
        permissionCodes: ['authorization.role.view'],
        durationSeconds: 60,
        reason: 'review',
      },
    ]);
  });

  it('starts nothing for a request the routes decide, or one whose event lacks what the workflow needs', async () => {
    await expect(listener.handle({ ...filed, approval: 'route' })).resolves.toBe('ignored');
    await expect(listener.handle({ tenantId: 'acme', requestId: filed.requestId, subject: 'erin', status: 'pending' })).resolves.toBe('ignored');
    await expect(listener.handle({ ...filed, reason: undefined })).resolves.toBe('ignored');
    expect(begun).toEqual([]);
  });

  it('ends the instance of a request decided elsewhere', async () => {
    await expect(listener.handle({ ...filed, status: 'approved' })).resolves.toBe('ended');
    expect(ended).toEqual([`${filed.requestId}:approved`]);
  });

  it('settles a refusal of the engine (the request stays with the routes) but throws an outage for a redelivery', async () => {
    failure = new DomainError('Workflow.Runtime.AssigneeEmpty', 422, 'nobody');
    await expect(listener.handle(filed)).resolves.toBe('ignored');
    failure = new DomainError('Workflow.Simulation.RoleMembersUnavailable', 503, 'later');
    await expect(listener.handle(filed)).rejects.toBe(failure);
  });
});
