import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FeatureDisabledError, FeatureGate } from '@lp/authz-guard';
import { TrustedCaller } from '@lp/contracts';
import { WorkflowRuntimeGuard, WritesNothing } from './workflow-runtime.guard';

class Routes {
  write(): void {
    return undefined;
  }
  @WritesNothing('validates only')
  validate(): void {
    return undefined;
  }
}

const caller: TrustedCaller = { kind: 'user', subject: 'ann', tenantId: 'acme', scopes: [], claimsDigest: 'd' };

function contextFor(method: string, handler: keyof Routes, withCaller = true): ExecutionContext {
  const request = { method, caller: withCaller ? caller : undefined };
  return {
    getType: () => 'http',
    getHandler: () => Routes.prototype[handler],
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

function rpcContextFor(handler: keyof Routes, message: unknown): ExecutionContext {
  return {
    getType: () => 'rpc',
    getHandler: () => Routes.prototype[handler],
    switchToRpc: () => ({ getData: () => message }),
  } as unknown as ExecutionContext;
}

describe('WorkflowRuntimeGuard', () => {
  const asked: string[] = [];
  let enabled = false;
  const features = {
    require: async (c: TrustedCaller, feature: string) => {
      asked.push(`${c.tenantId}/${feature}`);
      if (!enabled) throw new FeatureDisabledError(feature);
    },
  } as unknown as FeatureGate;
  const guard = new WorkflowRuntimeGuard(new Reflector(), features);

  beforeEach(() => {
    asked.length = 0;
    enabled = false;
  });

  it('refuses every write method with Feature.Disabled while workflow.runtime is off', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      await expect(guard.canActivate(contextFor(method, 'write'))).rejects.toMatchObject({ code: 'Feature.Disabled', status: 403 });
    }
    expect(asked).toEqual(Array(4).fill('acme/workflow.runtime'));
    enabled = true;
    await expect(guard.canActivate(contextFor('POST', 'write'))).resolves.toBe(true);
  });

  it('lets reads and routes that write nothing pass without asking', async () => {
    await expect(guard.canActivate(contextFor('GET', 'write'))).resolves.toBe(true);
    await expect(guard.canActivate(contextFor('HEAD', 'write'))).resolves.toBe(true);
    await expect(guard.canActivate(contextFor('POST', 'validate'))).resolves.toBe(true);
    expect(asked).toEqual([]);
  });

  it('treats every RPC handler as a write unless exempt, and leaves a message without a well-formed caller to the authorization guard', async () => {
    await expect(guard.canActivate(rpcContextFor('write', { caller, payload: {} }))).rejects.toMatchObject({ code: 'Feature.Disabled' });
    await expect(guard.canActivate(rpcContextFor('validate', { caller, payload: {} }))).resolves.toBe(true);
    for (const message of [null, 'x', { payload: {} }, { caller: { kind: 'user', subject: 'x' } }]) {
      await expect(guard.canActivate(rpcContextFor('write', message))).resolves.toBe(true);
    }
    expect(asked).toEqual(['acme/workflow.runtime']);
  });

  it('an exemption needs a reason', () => {
    expect(() => WritesNothing(' ')).toThrow(/reason/);
  });
});
