import type { ConnectorName } from '@lp/contracts';
import type { UnavailableProxy } from './adapter-classification';
import { ConnectorCallFailedError, ConnectorUnavailableError } from './connector.errors';

/** The port every connector adapter implements: one operation of the external system, JSON in and out. */
export abstract class ExternalConnector {
  constructor(readonly connector: ConnectorName) {}
  abstract invoke(operation: string, input: Record<string, unknown>): Promise<unknown>;
}

/**
 * The fail-closed proxy registered when the chosen provider cannot run in this deployment (its SDK
 * package is not installed): every call is refused, nothing reaches the vendor.
 */
export class UnavailableConnector extends ExternalConnector implements UnavailableProxy {
  readonly unavailableProxy = true;

  constructor(
    connector: ConnectorName,
    private readonly why: string,
  ) {
    super(connector);
  }

  invoke(): Promise<never> {
    return Promise.reject(new ConnectorUnavailableError(this.connector, this.why));
  }
}

export interface HttpGatewaySettings {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/**
 * The `http` provider: the vendor (or an integration gateway in front of it) speaks JSON over
 * HTTPS, `POST {baseUrl}/{operation}` with the API key as a bearer token. No SDK needed.
 */
export class HttpGatewayConnector extends ExternalConnector {
  constructor(
    connector: ConnectorName,
    private readonly settings: HttpGatewaySettings,
  ) {
    super(connector);
  }

  async invoke(operation: string, input: Record<string, unknown>): Promise<unknown> {
    const url = `${this.settings.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(operation)}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.settings.apiKey}` },
        body: JSON.stringify(input),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      throw new ConnectorCallFailedError(this.connector, error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw new ConnectorCallFailedError(this.connector, `HTTP ${response.status}`);
    return response.json();
  }
}

/** The slice of tesseract.js the OCR adapter uses. */
interface TesseractSdk {
  recognize(image: Buffer, langs: string): Promise<{ data: { text: string } }>;
}

/** The `tesseract` OCR provider: local recognition with tesseract.js, `recognize { image: base64, langs? }` → `{ text }`. */
export class TesseractOcrConnector extends ExternalConnector {
  constructor(private readonly sdk: TesseractSdk) {
    super('Ocr');
  }

  async invoke(operation: string, input: Record<string, unknown>): Promise<unknown> {
    if (operation !== 'recognize' || typeof input['image'] !== 'string')
      throw new ConnectorCallFailedError(this.connector, `unsupported operation ${operation}`);
    const langs = typeof input['langs'] === 'string' ? input['langs'] : 'eng';
    const result = await this.sdk.recognize(Buffer.from(input['image'], 'base64'), langs);
    return { text: result.data.text };
  }
}

/** The slice of playwright-core the crawler adapter uses. */
interface PlaywrightSdk {
  chromium: {
    launch(options: { headless: boolean }): Promise<{
      newPage(): Promise<{ goto(url: string, options: { timeout: number }): Promise<unknown>; content(): Promise<string> }>;
      close(): Promise<void>;
    }>;
  };
}

/** The `playwright` crawler provider: a headless Chromium (installed by the operator), `fetch-page { url }` → `{ html }`. */
export class PlaywrightCrawlerConnector extends ExternalConnector {
  constructor(
    private readonly sdk: PlaywrightSdk,
    private readonly timeoutMs: number,
  ) {
    super('Crawler');
  }

  async invoke(operation: string, input: Record<string, unknown>): Promise<unknown> {
    if (operation !== 'fetch-page' || typeof input['url'] !== 'string')
      throw new ConnectorCallFailedError(this.connector, `unsupported operation ${operation}`);
    const browser = await this.sdk.chromium.launch({ headless: true });
    try {
      const page = await browser.newPage();
      await page.goto(input['url'], { timeout: this.timeoutMs });
      return { html: await page.content() };
    } finally {
      await browser.close();
    }
  }
}

export type SdkModule = TesseractSdk | PlaywrightSdk;
