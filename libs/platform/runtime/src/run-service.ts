import { Logger } from '@nestjs/common';
import { collectProcessMetrics } from '@lp/platform/observability';
import { startPlatformRuntime } from './platform-runtime';
import { exitOnStartupError } from './startup-error';
import { createServiceApp } from './service-app';
import { ServiceDefinition } from './service-definition';
import { createHttpServer } from './http-server';
import { installShutdown } from './shutdown';
import { admitHttpRequests } from '@lp/platform/admission';
import { processAdmission } from './process-admission';

/** `apps/<service>/src/main.ts`: one service in its own process (the fleet profile). */
export async function runService(service: ServiceDefinition): Promise<void> {
  const logger = new Logger(service.name);
  // The process's CPU, memory, heap and event-loop lag on /metrics (the dashboards' process rows).
  collectProcessMetrics();
  try {
    const runtime = await startPlatformRuntime(service.name);
    const admission = processAdmission(runtime);
    const hosted = await createServiceApp(service, runtime);
    const server = createHttpServer(admitHttpRequests(hosted.http, admission.controller));
    await new Promise<void>((resolve) => server.listen(runtime.config.PORT, runtime.config.HOST, resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : runtime.config.PORT;
    installShutdown(logger, async () => {
      await server.drain(runtime.config.SHUTDOWN_DRAIN_MS);
      admission.close();
      await hosted.app.close();
      await runtime.close();
    });
    process.stdout.write(`ready: http://127.0.0.1:${port} (${service.name})\n`);
  } catch (error) {
    exitOnStartupError(logger, error);
  }
}

export { exitOnStartupError } from './startup-error';
