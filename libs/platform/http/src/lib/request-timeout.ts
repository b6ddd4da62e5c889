import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable, throwError, TimeoutError } from 'rxjs';
import { catchError, timeout } from 'rxjs/operators';
import { RequestDeadline } from '@lp/platform/observability';
import { DomainError } from './domain-error';

/** Request timeout policies named by the specs: `WorkflowCommand` is the longer one, for runtime writes. */
export type TimeoutPolicyName = 'StandardCommand' | 'WorkflowCommand';

export interface TimeoutPolicies {
  StandardCommand: number;
  WorkflowCommand: number;
}

export const DEFAULT_TIMEOUT_POLICIES: TimeoutPolicies = { StandardCommand: 30_000, WorkflowCommand: 120_000 };
export const TIMEOUT_POLICIES = Symbol('TIMEOUT_POLICIES');
const TIMEOUT_POLICY_KEY = 'lp:timeout-policy';

/** Marks a route with its timeout policy; routes without one get `StandardCommand`. */
export const TimeoutPolicy = (name: TimeoutPolicyName) => SetMetadata(TIMEOUT_POLICY_KEY, name);

export class RequestTimeoutError extends DomainError {
  constructor(policy: TimeoutPolicyName, ms: number) {
    super('RequestTimeout', 504, `The request did not complete within ${ms} ms (${policy} policy).`);
  }
}

@Injectable()
export class RequestTimeoutInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly policies: TimeoutPolicies = DEFAULT_TIMEOUT_POLICIES,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const policy = this.reflector.getAllAndOverride<TimeoutPolicyName>(TIMEOUT_POLICY_KEY, [context.getHandler(), context.getClass()]) ?? 'StandardCommand';
    const ms = this.policies[policy];
    // The request's deadline, which its RPCs carry, follows the route's policy.
    RequestDeadline.setBudget(ms);
    return next.handle().pipe(
      timeout(ms),
      catchError((error: unknown) => throwError(() => (error instanceof TimeoutError ? new RequestTimeoutError(policy, ms) : error))),
    );
  }
}
