import { ConfigValidationError } from '@lp/platform/config';
import { testServerUrls } from '@lp/platform/testing';
import { platformConfig, startPlatformRuntime, StartupError } from '../src';

describe('platform configuration at boot', () => {
  it('lists every problem at once', () => {
    let error: unknown;
    try {
      platformConfig.load({ PORT: 'eighty', JWT_SECRET: 'short', LOG_LEVEL: 'chatty', DATABASE_URL: 'not a url' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const keys = (error as ConfigValidationError).problems.map((p) => p.key).sort();
    expect(keys).toEqual(['DATABASE_URL', 'JWT_SECRET', 'LOG_LEVEL', 'PORT']);
    expect((error as Error).message).not.toContain('short');
  });

  it('refuses to start in production without explicit JWT settings', async () => {
    await expect(startPlatformRuntime('test', { NODE_ENV: 'production', DATABASE_URL: testServerUrls.postgres })).rejects.toBeInstanceOf(StartupError);
  });
});
