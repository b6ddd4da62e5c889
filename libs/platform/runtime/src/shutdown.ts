import { Tracing } from '@lp/platform/observability/plain';

/** What the shutdown logs through: Nest's Logger, or a plain one where Nest is not loaded (the console's app). */
export interface ShutdownLogger {
  log(message: string): void;
  error(message: string): void;
}

/**
 * Graceful stop on SIGTERM/SIGINT: stop taking requests, let the apps flush (outbox relay, audit
 * batches), then release the embedded database and export the last spans. A second signal forces the exit.
 */
export function installShutdown(logger: ShutdownLogger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.log(`${signal}: shutting down`);
    const started = Date.now();
    stop()
      // The spans of the last requests are exported before the exit (a no-op while tracing is off).
      .then(() => Tracing.shutdown().catch((error: unknown) => logger.error(`trace export at shutdown failed: ${String(error)}`)))
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
