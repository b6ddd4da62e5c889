import type { Dispatcher } from 'undici';

// What is drained past the kept prefix so the connection can serve the next attempt; a longer or
// slower answer has its connection closed instead.
const DRAIN_LIMIT_BYTES = 64 * 1024;
const DRAIN_TIMEOUT_MS = 1000;

/**
 * Reads a receiver's answer up to `maxBytes` for the delivery log, cut at a UTF-8 character
 * boundary; null when empty. Reading stops at the limit: a huge answer costs neither memory nor
 * the attempt's time.
 */
export function readResponseBody(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => {
      body.off('data', onData).off('end', onEnd).off('error', onError);
      const kept = utf8Prefix(Buffer.concat(chunks, size), maxBytes);
      resolve(kept.length > 0 ? kept.toString('utf8') : null);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= maxBytes) return;
      settle();
      body.dump({ limit: size + DRAIN_LIMIT_BYTES, signal: AbortSignal.timeout(DRAIN_TIMEOUT_MS) }).catch(() => undefined);
    };
    const onEnd = () => settle();
    const onError = (error: Error) => {
      body.off('data', onData).off('end', onEnd).off('error', onError);
      reject(error);
    };
    body.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** The longest prefix of `bytes` within `maxBytes` that does not split a UTF-8 character. */
export function utf8Prefix(bytes: Buffer, maxBytes: number): Buffer {
  if (bytes.length <= maxBytes) return bytes;
  let cut = maxBytes;
  // A continuation byte (10xxxxxx) right after the cut belongs to a character that started before it.
  for (let back = 0; back < 3 && cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80; back++) cut--;
  return bytes.subarray(0, cut);
}
