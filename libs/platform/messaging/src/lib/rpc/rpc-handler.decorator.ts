import { applyDecorators, ArgumentMetadata, PipeTransform, UsePipes } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AnyRpcContract, parseMessage, ReceivedOf, ReplyOf } from '@lp/contracts';

/** Checks the received message with its contract's schema before the handler sees it. */
export class RpcContractPipe implements PipeTransform {
  constructor(private readonly contract: AnyRpcContract) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // Nest reports the `@Payload()` parameter of a message handler as 'body' (`@Ctx()` as 'custom').
    if (metadata.type !== 'body') return value;
    return parseMessage(this.contract.schema, value);
  }
}

type Handler<C extends AnyRpcContract> = (message: ReceivedOf<C>, ...rest: never[]) => ReplyOf<C> | Promise<ReplyOf<C>>;

/**
 * Serves one RPC contract: subscribes the method to its pattern and checks every received message
 * with the contract's schema (a wrong shape answers `Validation.Failed`, the handler never runs).
 * The method must take what the schema returns and return the contract's reply: a mismatch is a
 * compile error. The guard runs before the check, so `@Authorize`/`@SkipAuthorization` still apply.
 */
export function RpcHandler<C extends AnyRpcContract>(contract: C) {
  return <T extends Handler<C>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<T>): void => {
    applyDecorators(MessagePattern(contract.pattern), UsePipes(new RpcContractPipe(contract)))(target, key, descriptor);
  };
}
