/**
 * `npm run -s token -- --sub SUBJECT --tenant TENANT [--app CLIENT_ID --scope "a b"] [--act ACTOR] [--ttl SECONDS]`
 * Prints only a token, signed with the same secret as `npm start` (JWT_SECRET, or the secret kept
 * under DATA_DIR by the first start).
 */
import { parseArgs } from 'node:util';
import { signAccessToken } from '@lp/platform/auth/issuer';
import { platformConfig, readSigningSecret } from '@lp/platform/runtime/signing';

function fail(message: string): never {
  process.stderr.write(`token: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    sub: { type: 'string' },
    tenant: { type: 'string' },
    app: { type: 'string' },
    scope: { type: 'string' },
    act: { type: 'string' },
    'grant-id': { type: 'string' },
    ttl: { type: 'string' },
  },
  strict: true,
});

const config = platformConfig.load();
const secret = config.JWT_SECRET ?? readSigningSecret(config.DATA_DIR);
if (!secret) fail(`no signing secret: start the platform once (it creates one under ${config.DATA_DIR}) or set JWT_SECRET`);
if (!values.tenant) fail('--tenant is required');
if (!values.sub && !values.app) fail('--sub (a user) or --app (an application) is required');
const ttl = values.ttl === undefined ? 3600 : Number(values.ttl);
if (!Number.isInteger(ttl) || ttl <= 0) fail('--ttl must be a positive number of seconds');
// The services refuse a token living longer than JWT_MAX_TTL_SECONDS: do not print one they would refuse.
if (ttl > config.JWT_MAX_TTL_SECONDS) fail(`--ttl ${ttl} exceeds JWT_MAX_TTL_SECONDS (${config.JWT_MAX_TTL_SECONDS}); the services would refuse the token`);

process.stdout.write(
  `${signAccessToken(
    {
      sub: values.sub ?? values.app!,
      tenantId: values.tenant,
      clientId: values.app,
      scopes: values.scope?.split(/\s+/).filter(Boolean),
      actor: values.act,
      grantId: values['grant-id'],
      ttlSeconds: ttl,
    },
    { secret, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE },
  )}\n`,
);
