import { originAllowed } from './dns-rebinding.middleware';

describe('originAllowed', () => {
  const hosts = ['localhost', '127.0.0.1', '[::1]'];

  it('admits an origin on an allowed host, any port, when no origins are configured', () => {
    expect(originAllowed('http://127.0.0.1:3000', [], hosts)).toBe(true);
    expect(originAllowed('http://localhost:51234', [], hosts)).toBe(true);
    expect(originAllowed('http://[::1]:8080', [], hosts)).toBe(true);
  });

  it('refuses a rebinding origin, an opaque origin and a non-http scheme', () => {
    expect(originAllowed('http://evil.example:3000', [], hosts)).toBe(false);
    expect(originAllowed('null', [], hosts)).toBe(false);
    expect(originAllowed('file://localhost', [], hosts)).toBe(false);
  });

  it('uses the configured list exactly when there is one', () => {
    expect(originAllowed('https://app.example.com', ['https://app.example.com'], hosts)).toBe(true);
    expect(originAllowed('http://localhost:3000', ['https://app.example.com'], hosts)).toBe(false);
  });
});
