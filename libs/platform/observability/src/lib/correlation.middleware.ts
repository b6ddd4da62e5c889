import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, NestMiddleware } from '@nestjs/common';
import { runCorrelated } from './correlation';

/** `runCorrelated` as Nest middleware. */
@Injectable()
export class CorrelationMiddleware implements NestMiddleware {
  use(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    runCorrelated(req, res, next);
  }
}
