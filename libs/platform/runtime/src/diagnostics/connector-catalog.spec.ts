import { randomBytes } from 'node:crypto';
import { ConnectorRegistry, type SdkLoader } from './connector-catalog';
import { ConnectorUnavailableError } from './connector.errors';

const noSdk: SdkLoader = {
  available: () => false,
  load: () => {
    throw new Error('must not load an SDK that is not there');
  },
};
const entryOf = (registry: ConnectorRegistry, name: string) => registry.entries().find((e) => e.connector === name);

/** Shorter than the 16 characters an API key needs; generated, so no literal credential sits in the code. */
const tinySecret = randomBytes(4).toString('hex');

describe('ConnectorRegistry', () => {
  it('lists the eight connectors in their groups, NotConfigured when nothing is set', () => {
    const entries = new ConnectorRegistry({}, noSdk).entries();
    expect(entries.map((e) => [e.connector, e.group])).toEqual([
      ['ElectronicSignature', 'Legal'],
      ['EnterpriseInfo', 'Legal'],
      ['LegalDatabase', 'Legal'],
      ['Express', 'Legal'],
      ['SfLegalDocument', 'Legal'],
      ['IManage', 'Tools'],
      ['Ocr', 'Tools'],
      ['Crawler', 'Tools'],
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        status: 'NotConfigured',
        provider: null,
        adapterRegistered: false,
        adapterImplementation: null,
        changesRequireRestart: true,
      });
      expect(entry.dependentCapabilities.length).toBeGreaterThan(0);
    }
  });

  it('an http provider with its base URL and key is Configured', () => {
    const registry = new ConnectorRegistry(
      { CONNECTOR_IMANAGE_PROVIDER: 'http', CONNECTOR_IMANAGE_BASE_URL: 'https://imanage.example/api', CONNECTOR_IMANAGE_API_KEY: 'k'.repeat(20) },
      noSdk,
    );
    expect(entryOf(registry, 'IManage')).toMatchObject({
      provider: 'http',
      status: 'Configured',
      adapterRegistered: true,
      adapterImplementation: 'HttpGatewayConnector',
      configurationSection: 'CONNECTOR_IMANAGE',
    });
  });

  it('a provider missing a key, a short key or an unknown provider is NotConfigured with the reason, and never quotes a secret', () => {
    const registry = new ConnectorRegistry(
      {
        CONNECTOR_EXPRESS_PROVIDER: 'http',
        CONNECTOR_OCR_PROVIDER: 'http',
        CONNECTOR_OCR_BASE_URL: 'https://ocr.example',
        CONNECTOR_OCR_API_KEY: tinySecret,
        CONNECTOR_CRAWLER_PROVIDER: 'scrapy',
      },
      noSdk,
    );
    expect(entryOf(registry, 'Express')?.reason).toBe('provider http needs CONNECTOR_EXPRESS_BASE_URL, CONNECTOR_EXPRESS_API_KEY');
    expect(entryOf(registry, 'Ocr')).toMatchObject({ status: 'NotConfigured', adapterRegistered: false });
    expect(entryOf(registry, 'Ocr')?.reason).toContain('CONNECTOR_OCR_API_KEY');
    expect(entryOf(registry, 'Ocr')?.reason).not.toContain(tinySecret);
    expect(entryOf(registry, 'Crawler')).toMatchObject({ status: 'NotConfigured', provider: 'scrapy' });
  });

  it('a provider whose SDK is absent is an Unavailable proxy that fails closed when called', async () => {
    const registry = new ConnectorRegistry({ CONNECTOR_OCR_PROVIDER: 'tesseract' }, noSdk);
    expect(entryOf(registry, 'Ocr')).toMatchObject({
      provider: 'tesseract',
      status: 'Unavailable',
      adapterRegistered: true,
      adapterImplementation: 'UnavailableConnector',
      reason: 'provider tesseract needs the package tesseract.js, which is not installed',
    });
    const adapter = registry.adapter('Ocr');
    await expect(adapter?.invoke('recognize', { image: '' })).rejects.toBeInstanceOf(ConnectorUnavailableError);
    await expect(adapter?.invoke('recognize', { image: '' })).rejects.toMatchObject({ code: 'Connector.Unavailable', status: 503 });
  });

  it('detects SDKs with the real resolver: tesseract.js is not installed, so OCR fails closed', () => {
    // (playwright-core is installed here, for the console's browser tests, but not in the image.)
    const registry = new ConnectorRegistry({ CONNECTOR_OCR_PROVIDER: 'tesseract' });
    expect(entryOf(registry, 'Ocr')).toMatchObject({ status: 'Unavailable', adapterImplementation: 'UnavailableConnector' });
  });

  it('an installed SDK is loaded once and gives the provider adapter', () => {
    const loaded: string[] = [];
    const sdk: SdkLoader = { available: () => true, load: (pkg) => (loaded.push(pkg), { recognize: async () => ({ data: { text: 'x' } }) }) };
    const registry = new ConnectorRegistry({ CONNECTOR_OCR_PROVIDER: 'tesseract' }, sdk);
    expect(entryOf(registry, 'Ocr')).toMatchObject({ status: 'Configured', adapterImplementation: 'TesseractOcrConnector' });
    expect(loaded).toEqual(['tesseract.js']);
  });
});
