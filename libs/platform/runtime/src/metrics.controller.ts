import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '@lp/platform/auth';
import { metricsRegistry } from '@lp/platform/observability';

@Public()
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
