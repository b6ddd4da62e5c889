import { Controller, DynamicModule, Get, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { TrustedCaller } from '@lp/contracts';
import { ProblemDetailsFilter } from '@lp/platform/http';
import { Caller, Public } from '../src';

@Controller()
export class ProbeController {
  @Get('whoami')
  whoami(@Caller() caller: TrustedCaller): TrustedCaller {
    return caller;
  }

  @Public()
  @Get('health')
  health(): { status: string } {
    return { status: 'ok' };
  }

  /** A public route that still asks for a caller: a programming error that must not yield `undefined`. */
  @Public()
  @Get('public-whoami')
  publicWhoami(@Caller() caller: TrustedCaller): TrustedCaller {
    return caller;
  }
}

@Public()
@Controller('metrics')
export class PublicController {
  @Get()
  metrics(): string {
    return 'up 1';
  }
}

/** A tiny app for e2e specs: the given AuthModule, the real guard, the platform's problem filter. */
export async function startProbeApp(auth: DynamicModule): Promise<INestApplication> {
  @Module({ imports: [auth], controllers: [ProbeController, PublicController] })
  class ProbeAppModule {}
  const app = await NestFactory.create(ProbeAppModule, { logger: false, abortOnError: false });
  app.useGlobalFilters(new ProblemDetailsFilter());
  await app.init();
  return app;
}
