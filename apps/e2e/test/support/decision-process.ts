/**
 * policy-management and authz-decision in a process of their own, for tests that must crash it
 * (kill -9) and start it again on the same database and audit spool. Configured by the environment
 * like any service; prints `listening <port>` once its HTTP server serves the decision routes.
 */
import 'reflect-metadata';
import { createHttpServer, createServiceApp, startPlatformRuntime } from '@lp/platform/runtime';
import { authzDecisionService } from '@lp/service/authz-decision';
import { policyManagementService } from '@lp/service/policy-management';

async function main(): Promise<void> {
  const runtime = await startPlatformRuntime('decision-process');
  await createServiceApp(policyManagementService, runtime);
  const decision = await createServiceApp(authzDecisionService, runtime);
  const server = createHttpServer(decision.http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`decision process failed: ${String(error)}\n`);
  process.exit(1);
});
