/** The cache's backing store cannot be reached; the call did not happen. Callers on the decision path fail closed. */
export class CacheUnavailableError extends Error {
  constructor(reason: string) {
    super(`Cache unavailable: ${reason}`);
    this.name = new.target.name;
  }
}
