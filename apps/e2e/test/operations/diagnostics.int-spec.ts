import { randomBytes } from 'node:crypto';
import { FLEET_SERVICE_NAMES, FleetService } from '@lp/contracts';
import { describeWithServers } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { expectProblem } from '../support/policy-platform';

const ROUTES = ['governance', 'adapters', 'connectors', 'config'] as const;
const TOO_SHORT_LICENSE = 'not-a-license';
// Generated per run: the report must not leak it, whatever it is.
const ESIGN_API_KEY = randomBytes(18).toString('base64url');

interface ServiceAnswer {
  service: string;
  status: 'ok' | 'unreachable' | 'failed';
  reason?: string;
  snapshot?: Record<string, unknown>;
}

function answerOf(body: { services: ServiceAnswer[] }, service: string): ServiceAnswer {
  const answer = body.services.find((s) => s.service === service);
  if (!answer) throw new Error(`no answer for ${service}`);
  return answer;
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'operations diagnostics: the four fleet-wide reports', () => {
  // Deliberately misconfigured for every service of the run: a license key below its minimum
  // length, a connector chosen without its base URL, one whose SDK is not installed, one complete.
  const platform = new OperationsTestPlatform('diagnostics', {
    env: {
      OPERATIONS_DIAGNOSTICS_TIMEOUT_MS: '1500',
      LICENSE_KEY: TOO_SHORT_LICENSE,
      CONNECTOR_LEGAL_DATABASE_PROVIDER: 'http',
      CONNECTOR_OCR_PROVIDER: 'tesseract',
      CONNECTOR_ELECTRONIC_SIGNATURE_PROVIDER: 'http',
      CONNECTOR_ELECTRONIC_SIGNATURE_BASE_URL: 'https://esign.invalid/api',
      CONNECTOR_ELECTRONIC_SIGNATURE_API_KEY: ESIGN_API_KEY,
    },
  });
  beforeAll(async () => {
    await platform.start();
    await platform.grantRole('default', 'clerk', 'job-viewer', ['operations.jobs.view']);
    await platform.seedTenantAdmin('acme', 'ann');
  }, 90_000);
  afterAll(() => platform.stop());

  it.each(ROUTES)('GET /api/operations/%s answers 200 with every fleet service present and answering', async (route) => {
    const res = await platform.ops().get(`/api/operations/${route}`).expect(200);
    expect(Date.parse(res.body.generatedAt)).not.toBeNaN();
    expect(res.body.services.map((s: ServiceAnswer) => s.service).sort()).toEqual([...FLEET_SERVICE_NAMES].sort());
    for (const answer of res.body.services as ServiceAnswer[]) expect(answer).toMatchObject({ status: 'ok', snapshot: expect.any(Object) });
  });

  it('governance lists each service’s modules with their imports, no cycle and a Mermaid graph', async () => {
    const res = await platform.ops().get('/api/operations/governance').expect(200);
    const snapshot = answerOf(res.body, FleetService.operations).snapshot as {
      modules: Array<{ name: string; imports: string[] }>;
      hasCircularDependencies: boolean;
      missingDependencies: string[];
      graph: string;
    };
    const operations = snapshot.modules.find((m) => m.name === 'OperationsModule');
    expect(operations?.imports).toEqual(expect.arrayContaining(['DiagnosticsModule', 'JobsModule']));
    expect(snapshot.hasCircularDependencies).toBe(false);
    expect(snapshot.missingDependencies).toEqual([]);
    expect(snapshot.graph).toMatch(/^graph TD\n/);
    expect(snapshot.graph).toContain('OperationsModule --> DiagnosticsModule');
  });

  it('adapters: the production profile reads Production (RabbitMQ by the extension, Redis by the table), the bad license reads Invalid', async () => {
    const res = await platform.ops().get('/api/operations/adapters').expect(200);
    const { adapters } = answerOf(res.body, FleetService.authzDecision).snapshot as { adapters: Array<Record<string, string>> };
    const byPort = new Map(adapters.map((a) => [a['port'], a]));
    expect(byPort.get('KeyValueCache')).toMatchObject({ implementation: 'RedisKeyValueCache', status: 'Production', reason: 'REDIS_URL set' });
    expect(byPort.get('RpcClient')).toMatchObject({ implementation: 'RabbitMqRpcClient', status: 'Production', reason: 'AMQP_URL set' });
    expect(byPort.get('RuntimeLicenseProvider')).toMatchObject({
      implementation: 'Ed25519RuntimeLicenseProvider',
      status: 'Invalid',
      classifiedBy: 'self-reported',
    });
    expect(byPort.get('RuntimeLicenseProvider')?.['reason']).toContain('LICENSE_KEY');
    // A service's own port shows even though nobody listed it: a class token resolved to a subclass.
    const policy = answerOf(res.body, FleetService.policyManagement).snapshot as { adapters: Array<Record<string, string>> };
    expect(policy.adapters.find((a) => a['port'] === 'PermissionRequestApprovals')).toMatchObject({ layer: 'discovered', status: 'Unknown' });
  });

  it('connectors: configured, missing a key, SDK absent (fail-closed proxy) and unset are told apart', async () => {
    const res = await platform.ops().get('/api/operations/connectors').expect(200);
    const { connectors } = answerOf(res.body, FleetService.policyManagement).snapshot as { connectors: Array<Record<string, unknown>> };
    expect(connectors.map((c) => c['connector'])).toEqual([
      'ElectronicSignature',
      'EnterpriseInfo',
      'LegalDatabase',
      'Express',
      'SfLegalDocument',
      'IManage',
      'Ocr',
      'Crawler',
    ]);
    const byName = new Map(connectors.map((c) => [c['connector'], c]));
    expect(byName.get('ElectronicSignature')).toMatchObject({
      provider: 'http',
      status: 'Configured',
      adapterRegistered: true,
      adapterImplementation: 'HttpGatewayConnector',
      configurationSection: 'CONNECTOR_ELECTRONIC_SIGNATURE',
      changesRequireRestart: true,
    });
    expect(byName.get('LegalDatabase')).toMatchObject({ provider: 'http', status: 'NotConfigured', adapterRegistered: false, adapterImplementation: null });
    expect(byName.get('LegalDatabase')?.['reason']).toContain('CONNECTOR_LEGAL_DATABASE_BASE_URL');
    expect(byName.get('Ocr')).toMatchObject({
      provider: 'tesseract',
      status: 'Unavailable',
      adapterRegistered: true,
      adapterImplementation: 'UnavailableConnector',
    });
    expect(byName.get('Crawler')).toMatchObject({ provider: null, status: 'NotConfigured', adapterRegistered: false });
  });

  it('config: the misconfigured keys read missing and too-short, secrets show only their length, and the JWT secret never appears', async () => {
    const res = await platform.ops().get('/api/operations/config').expect(200);
    const secret = platform.runtime.signingSecret;
    expect(secret).toBeTruthy();
    expect(res.text).not.toContain(secret as string);
    expect(res.text).not.toContain(ESIGN_API_KEY);
    expect(res.text).not.toContain(TOO_SHORT_LICENSE);
    for (const service of FLEET_SERVICE_NAMES) {
      const { keys } = answerOf(res.body, service).snapshot as { keys: Array<Record<string, unknown>> };
      const byKey = new Map(keys.map((k) => [k['key'], k]));
      expect(byKey.get('LICENSE_KEY')).toEqual(expect.objectContaining({ status: 'too-short', sensitive: true, length: TOO_SHORT_LICENSE.length }));
      expect(byKey.get('LICENSE_KEY')).not.toHaveProperty('value');
      expect(byKey.get('CONNECTOR_LEGAL_DATABASE_BASE_URL')).toMatchObject({ status: 'missing' });
      expect(byKey.get('JWT_SECRET')).toEqual(expect.objectContaining({ status: 'configured', length: (secret as string).length }));
      expect(byKey.get('JWT_SECRET')).not.toHaveProperty('value');
    }
    // Each service reports its own keys, not its neighbours'.
    const operationsKeys = (answerOf(res.body, FleetService.operations).snapshot as { keys: Array<{ key: string }> }).keys.map((k) => k.key);
    const policyKeys = (answerOf(res.body, FleetService.policyManagement).snapshot as { keys: Array<{ key: string }> }).keys.map((k) => k.key);
    expect(operationsKeys).toContain('OPERATIONS_DIAGNOSTICS_TIMEOUT_MS');
    expect(policyKeys).not.toContain('OPERATIONS_DIAGNOSTICS_TIMEOUT_MS');
    expect(policyKeys).toContain('POLICY_CHANGE_LOG_RETENTION_DAYS');
  });

  it.each(ROUTES)('GET /api/operations/%s: a user without operations.diagnostics.view gets 403 Authorization.Denied', async (route) => {
    expectProblem(await platform.ops('clerk').get(`/api/operations/${route}`), 403, 'Authorization.Denied');
  });

  it('a tenant administrator of another tenant gets 403: the permission is platform-level', async () => {
    expectProblem(await platform.ops('ann', 'acme').get('/api/operations/config'), 403, 'Authorization.Denied');
  });

  // Last: it stops policy-management for the rest of the run.
  it('a service that does not answer is listed as unreachable and the report still answers 200', async () => {
    await platform.policy.app.close();
    const started = Date.now();
    const res = await platform.ops().get('/api/operations/governance').expect(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answerOf(res.body, FleetService.policyManagement)).toMatchObject({ status: 'unreachable', reason: expect.stringContaining('1500 ms') });
    expect(answerOf(res.body, FleetService.policyManagement)).not.toHaveProperty('snapshot');
    expect(answerOf(res.body, FleetService.authzDecision)).toMatchObject({ status: 'ok' });
    expect(answerOf(res.body, FleetService.operations)).toMatchObject({ status: 'ok' });
  });
});
