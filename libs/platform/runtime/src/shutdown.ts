import { Logger } from '@nestjs/common';
import { Tracing } from '@lp/platform/observability';

/**
 * Graceful stop on SIGTERM/SIGINT: stop taking requests, let the apps flush (outbox relay, audit
 * batches), then release the embedded database and export the last spans. A second signal forces the exit.
 */
export function installShutdown(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.log(`${signal}: shutting down`);
    const started = Date.now();
    stop()
      // The spans of the last requests are exported before the exit (a no-op while tracing is off).
      .then(() => Tracing.shutdown().catch((error: unknown) => logger.warn(`trace export at shutdown failed: ${String(error)}`)))
      .then(() => {
        logger.log(`stopped in ${Date.now() - started} ms`);
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error(`shutdown failed: ${String(error)}`);
        process.exit(1);
      });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
