/**
 * The security headers every answer of the platform carries: the admin console, the API explorer
 * (`/docs`, where people paste a token), the OpenAPI documents, probes, metrics and the APIs alike.
 * One definition, so a page added later cannot be served without them.
 *
 * The policy fits the platform's own pages: scripts and styles only from files of this origin (no
 * inline script or `<style>`; values a script sets through the DOM's `style` are not affected),
 * `data:` images (Swagger UI's icons are inline SVG in its stylesheet), requests to this origin
 * only, nothing may frame a page. `issuerOrigin` is the console's OIDC issuer, which the sign-in
 * reaches by `fetch` (discovery, token endpoint) and by form navigation. `inlineStyleHashes` admits
 * the exact `<style>` elements a page is known to insert (CSP hash sources, `sha256-...`), and no
 * other.
 */
export function securityHeaders(options: { issuerOrigin?: string; inlineStyleHashes?: string[] } = {}): Record<string, string> {
  const issuer = options.issuerOrigin ? ` ${options.issuerOrigin}` : '';
  const styles = (options.inlineStyleHashes ?? []).map((hash) => ` '${hash}'`).join('');
  return {
    'Content-Security-Policy': `default-src 'self'; connect-src 'self'${issuer}; img-src 'self' data:; style-src 'self'${styles}; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'${issuer}`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    // For browsers that predate `frame-ancestors`.
    'X-Frame-Options': 'DENY',
  };
}

/** `securityHeaders()` without an issuer: what every answer but the OIDC console's carries. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(securityHeaders());
