import { AuthorizationDeniedError, DataScope, TrustedCaller } from '@lp/contracts';
import { PageQuery } from '@lp/platform/http';
import type { DataSource } from 'typeorm';
import type { OutboxWriter } from '@lp/platform/messaging';
import type { RuntimeRepository } from './runtime.repository';
import { RuntimeService } from './runtime.service';

describe('RuntimeService: the actor', () => {
  const repository = { todoPage: jest.fn(), todoCount: jest.fn(), donePage: jest.fn(), task: jest.fn(), taskWithInstance: jest.fn() };
  const service = new RuntimeService({} as DataSource, repository as unknown as RuntimeRepository, {} as OutboxWriter, {
    membersOfRole: () => Promise.resolve([]),
  });
  const subjectless: TrustedCaller = { kind: 'user', subject: '', tenantId: 'default', scopes: [], claimsDigest: 'x' };
  const tenantScope: DataScope = { kind: 'tenant', tenantId: 'default' };

  it('refuses a caller without a subject on every route with 403 before reading anything', async () => {
    for (const call of [
      () => service.todo(subjectless, tenantScope, new PageQuery()),
      () => service.todoCount(subjectless, tenantScope),
      () => service.done(subjectless, new PageQuery()),
      () => service.task(subjectless, '00000000-0000-4000-8000-000000000000'),
      () => service.markRead(subjectless, '00000000-0000-4000-8000-000000000000'),
      () => service.decide(subjectless, '00000000-0000-4000-8000-000000000000', { decision: 'approve' }),
      () => service.start(subjectless, { definitionKey: 'k', businessKey: 'b', variables: {}, priority: 0 }),
      () => service.delegate(subjectless, '00000000-0000-4000-8000-000000000000', { to: 'x' }),
      () => service.addParticipant(subjectless, '00000000-0000-4000-8000-000000000000', { subjects: ['x'], position: 'parallel' }),
      () => service.operate(subjectless, '00000000-0000-4000-8000-000000000000', 'cancel', {}),
      () => service.startAtNode(subjectless, { definitionKey: 'k', businessKey: 'b', nodeKey: 'n', variables: {}, priority: 0 }),
      () => service.reset(subjectless, '00000000-0000-4000-8000-000000000000', { nodeKey: 'n' }),
      () => service.transferApplicant(subjectless, '00000000-0000-4000-8000-000000000000', { to: 'x' }),
      () => service.batchComplete(subjectless, { taskIds: ['00000000-0000-4000-8000-000000000000'] }),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(AuthorizationDeniedError);
    }
    for (const fn of Object.values(repository)) expect(fn).not.toHaveBeenCalled();
  });
});
