import { FixedLimit } from './concurrency-limit';
import { GradientLimit } from './gradient-limit';

describe('GradientLimit', () => {
  const limit = () => new GradientLimit({ initial: 20, min: 4, max: 100 });

  it('grows while latency holds steady and the limit is used', () => {
    const gradient = limit();
    for (let i = 0; i < 50; i++) gradient.onSample(10, gradient.current, false);
    expect(gradient.current).toBeGreaterThan(40);
  });

  it('does not grow while the process is app-limited (fewer than half the limit in flight)', () => {
    const gradient = limit();
    for (let i = 0; i < 200; i++) gradient.onSample(10, 5, false);
    expect(gradient.current).toBe(20);
  });

  it('shrinks when latency rises well above its long-term average, and never below the floor', () => {
    const gradient = new GradientLimit({ initial: 20, min: 10, max: 100 });
    for (let i = 0; i < 20; i++) gradient.onSample(10, gradient.current, false);
    const before = gradient.current;
    // Queueing inside the process: every request now takes ten times as long.
    for (let i = 0; i < 5; i++) gradient.onSample(100, gradient.current, false);
    expect(gradient.current).toBeLessThan(before);
    for (let i = 0; i < 100; i++) gradient.onSample(1_000 * (i + 1), gradient.current, false);
    expect(gradient.current).toBe(10);
  });

  it('recovers once latency is back to normal after a long overload', () => {
    const gradient = limit();
    for (let i = 0; i < 100; i++) gradient.onSample(10, gradient.current, false);
    for (let i = 0; i < 300; i++) gradient.onSample(200, gradient.current, false);
    const overloaded = gradient.current;
    for (let i = 0; i < 300; i++) gradient.onSample(10, gradient.current, false);
    expect(gradient.current).toBeGreaterThan(overloaded);
    expect(gradient.current).toBeLessThanOrEqual(100);
  });

  it('cuts the limit by a tenth for each dropped request, down to the floor', () => {
    const gradient = new GradientLimit({ initial: 100, min: 10, max: 100 });
    gradient.onSample(10, 100, true);
    expect(gradient.current).toBe(90);
    for (let i = 0; i < 100; i++) gradient.onSample(10, 100, true);
    expect(gradient.current).toBe(10);
  });

  it('refuses bounds that do not nest', () => {
    expect(() => new GradientLimit({ initial: 2, min: 4, max: 100 })).toThrow(RangeError);
    expect(() => new FixedLimit(0)).toThrow(RangeError);
  });
});
