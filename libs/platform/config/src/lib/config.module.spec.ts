import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { declareConfig, type ConfigOf } from './config-declaration';
import { ConfigRegistry } from './config-registry';
import { ConfigValidationError } from './config-validation-error';
import { ConfigModule, InjectConfig } from './config.module';

const greeterConfig = declareConfig(
  'greeter',
  { GREETING: { type: 'string', group: 'g', description: 'What to say', default: 'hello' } },
  { registry: new ConfigRegistry() },
);

@Injectable()
class Greeter {
  constructor(@InjectConfig(greeterConfig) readonly config: ConfigOf<typeof greeterConfig>) {}
}

// A feature module that does not import ConfigModule: the config is global to the app.
@Module({ providers: [Greeter], exports: [Greeter] })
class GreeterModule {}

async function boot(...args: Parameters<typeof ConfigModule.forRoot<typeof greeterConfig.spec>>) {
  @Module({ imports: [ConfigModule.forRoot(...args), GreeterModule] })
  class AppModule {}
  return NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false });
}

describe('ConfigModule', () => {
  it('injects the values it was given, and the global registry', async () => {
    const app = await boot(greeterConfig, greeterConfig.load({ GREETING: 'bonjour' }));
    try {
      expect(app.get(Greeter).config.GREETING).toBe('bonjour');
      expect(app.get(ConfigRegistry)).toBe(ConfigRegistry.global);
    } finally {
      await app.close();
    }
  });

  it('loads from process.env when no values are given, failing the boot on problems', async () => {
    const strict = declareConfig(
      'strict',
      { STRICT_SPEC_PORT: { type: 'int', group: 'g', description: 'd', required: true } },
      { registry: new ConfigRegistry() },
    );
    @Module({ imports: [ConfigModule.forRoot(strict)] })
    class StrictModule {}

    process.env.STRICT_SPEC_PORT = 'nope';
    try {
      await expect(NestFactory.createApplicationContext(StrictModule, { logger: false, abortOnError: false })).rejects.toBeInstanceOf(ConfigValidationError);
    } finally {
      delete process.env.STRICT_SPEC_PORT;
    }
  });

  it('loads from the environment the host gave rather than process.env (a runtime started with its own settings)', async () => {
    @Module({ imports: [ConfigModule.environment({ GREETING: 'hallo' }), ConfigModule.forRoot(greeterConfig), GreeterModule] })
    class HostedModule {}
    process.env.GREETING = 'ignored';
    const app = await NestFactory.createApplicationContext(HostedModule, { logger: false, abortOnError: false });
    try {
      expect(app.get(Greeter).config.GREETING).toBe('hallo');
    } finally {
      delete process.env.GREETING;
      await app.close();
    }
  });
});
