import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DomainError, FleetService, PermissionRequestChangedPayload, PermissionRequestEventFamily } from '@lp/contracts';
import { EventBus } from '@lp/platform/messaging';
import { PermissionRequestFlow } from './permission-request-flow.service';

/**
 * Follows the permission requests on workflow-engine's durable queue (`workflow-engine.events`), so
 * a request filed while the engine is down is started when it is back: a `pending` request whose
 * filing asked for a workflow starts its approval instance; a request decided outside its instance
 * ends it. Both are idempotent by the business key (the request id), so a redelivered event
 * changes nothing and no processed-event record is needed.
 */
@Injectable()
export class PermissionRequestFlowListener implements OnApplicationBootstrap {
  private readonly logger = new Logger(PermissionRequestFlowListener.name);

  constructor(
    private readonly bus: EventBus,
    private readonly flow: PermissionRequestFlow,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribeTo(PermissionRequestEventFamily, { mode: 'service', consumer: FleetService.workflowEngine }, async ({ envelope, payload }) => {
      if (!payload || payload.tenantId !== envelope.tenantId) {
        // Retrying cannot make a malformed event valid: say so and let it go.
        this.logger.error(`${envelope.eventType} ${envelope.eventId} does not match its contract (or its envelope's tenant); ignored`);
        return;
      }
      await this.handle(payload);
    });
  }

  /** Resolves what this event did; a refusal of the engine's own (4xx) is logged and settled, an outage is thrown for a redelivery. */
  async handle(payload: PermissionRequestChangedPayload): Promise<'started' | 'ended' | 'ignored'> {
    try {
      if (payload.status === 'pending') {
        if (payload.approval !== 'workflow') return 'ignored';
        const { permissionCodes, durationSeconds, reason } = payload;
        if (!permissionCodes || durationSeconds === undefined || reason === undefined) {
          this.logger.error(`permission request ${payload.requestId} asks for a workflow without its codes, duration and reason; not started`);
          return 'ignored';
        }
        const instance = await this.flow.begin({ ...payload, permissionCodes, durationSeconds, reason });
        return instance ? 'started' : 'ignored';
      }
      return (await this.flow.end(payload.tenantId, payload.requestId, payload.status)) ? 'ended' : 'ignored';
    } catch (error) {
      if (error instanceof DomainError && error.status < 500) {
        // E.g. nobody but the requester may approve (`Workflow.Runtime.AssigneeEmpty`): the request stays with the routes.
        this.logger.warn(
          `permission request ${payload.requestId} (tenant ${payload.tenantId}, ${payload.status}): ${error.code}: ${error.message}; it is left to the approve/reject routes`,
        );
        return 'ignored';
      }
      throw error;
    }
  }
}
