/** Latency samples in milliseconds → the figures a benchmark table prints. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  opsPerSecond: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function summarize(samplesMs: number[], wallMs: number): LatencySummary {
  const sorted = Float64Array.from(samplesMs).sort();
  return { count: samplesMs.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), opsPerSecond: (samplesMs.length / wallMs) * 1000 };
}

/**
 * Runs `call` `total` times with `concurrency` calls in flight, after `warmup` untimed calls, and
 * returns each call's latency plus the wall time of the timed part.
 */
export async function measure(call: () => Promise<unknown>, options: { total: number; concurrency: number; warmup: number }): Promise<LatencySummary> {
  for (let i = 0; i < options.warmup; i++) await call();
  const samples: number[] = [];
  let issued = 0;
  const started = performance.now();
  const worker = async () => {
    while (issued < options.total) {
      issued += 1;
      const t0 = performance.now();
      await call();
      samples.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return summarize(samples, performance.now() - started);
}

export function formatTable(rows: Array<Record<string, string | number>>): string {
  const columns = Object.keys(rows[0] ?? {});
  const cell = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : v);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]!).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ');
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => cell(r[c]!))))].join('\n');
}
