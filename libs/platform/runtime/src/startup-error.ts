import { ConfigValidationError } from '@lp/platform/config/plain';

/** The process cannot start as configured; the message says why and what to do (logged without a stack). */
export class StartupError extends Error {}

/** Logs why the process cannot start and exits 1: the message alone when it is the operator's to fix. */
export function exitOnStartupError(logger: { error(message: string): void }, error: unknown): never {
  // What the operator must fix, said plainly; a stack trace would only bury it.
  if (error instanceof ConfigValidationError || error instanceof StartupError) logger.error(error.message);
  else logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
}
