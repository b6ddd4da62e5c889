/**
 * The placeholders of `.env.example` all say "change me" (in a URL's password, in plain text, or
 * base64-encoded where the value must be base64). They are valid values, so a copy left unchanged
 * would boot with secrets everyone can read in the repository; production refuses them instead.
 */
const PLACEHOLDER = /change[-_ ]?me/i;

export function isPlaceholderSecret(raw: string): boolean {
  if (PLACEHOLDER.test(raw)) return true;
  try {
    if (PLACEHOLDER.test(decodeURIComponent(raw))) return true;
  } catch {
    // not URI-encoded: nothing to decode
  }
  // A key in `[v{N}:]base64` form (the webhook key ring's), or plain base64.
  const base64 = raw.replace(/^v\d+:/, '');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(base64)) return PLACEHOLDER.test(Buffer.from(base64, 'base64').toString('latin1'));
  return false;
}
