import { BaseRpcContext } from '@nestjs/microservices';

type InProcessRpcContextArgs = [headers: Record<string, string>, pattern: string];

/** What `@Ctx()` gives a handler on the in-process transport: the request headers and the pattern. */
export class InProcessRpcContext extends BaseRpcContext<InProcessRpcContextArgs> {
  getHeaders(): Record<string, string> {
    return this.args[0];
  }

  getPattern(): string {
    return this.args[1];
  }
}
