import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { PROBLEM_CONTENT_TYPE, toProblem } from '@lp/platform/http';
import { CorrelationContext } from '@lp/platform/observability';
import type { Request, Response } from 'express';
import { DefinitionErrorWithExtensions } from './definition-errors';

/**
 * Writes the problem+json of a definition error with its extension members (`currentRevision` of a
 * revision conflict, `problems` of an invalid definition): the same object the global filter
 * writes, plus those. Only these errors reach it; everything else goes to the global filter.
 */
@Catch(DefinitionErrorWithExtensions)
export class DefinitionProblemFilter implements ExceptionFilter {
  catch(error: DefinitionErrorWithExtensions, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const correlationId = CorrelationContext.current() ?? (request.headers['x-correlation-id'] as string | undefined);
    const body = { ...toProblem(error, correlationId), ...error.extensions, instance: request.originalUrl?.split('?')[0] };
    if (response.headersSent) return;
    response.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  }
}
