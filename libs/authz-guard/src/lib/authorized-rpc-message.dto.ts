import { IsObject, IsOptional } from 'class-validator';
import { TrustedCaller } from '@lp/contracts';
import { AuthorizationContext, AuthorizedRpcMessage } from './authorization-context';

/**
 * Base of a guarded RPC handler's message class: `{ caller, payload }` as the guard reads it, plus
 * the `authorization` the guard attaches on a Permit (before the validation pipe runs, so it must be
 * a known property). Subclasses declare `payload` with its own validated class:
 *
 *   class BootstrapMessage extends AuthorizedRpcMessageDto<BootstrapPayload> {
 *     @ValidateNested() @Type(() => BootstrapPayload) payload!: BootstrapPayload;
 *   }
 */
export abstract class AuthorizedRpcMessageDto<TPayload> implements AuthorizedRpcMessage<TPayload> {
  @IsObject()
  caller!: TrustedCaller;

  @IsOptional()
  @IsObject()
  authorization?: AuthorizationContext;

  abstract payload: TPayload;
}
