/** The process cannot start as configured; the message says why and what to do (logged without a stack). */
export class StartupError extends Error {}
