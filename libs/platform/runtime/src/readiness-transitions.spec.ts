import { ReadinessTransitions } from './readiness-transitions';

describe('ReadinessTransitions', () => {
  it('says nothing while ready from the start, one line per change, and nothing while the state holds', () => {
    const t = new ReadinessTransitions();
    expect(t.observe([])).toBeUndefined();
    expect(t.observe(['database'])).toBe('not ready: database unavailable');
    expect(t.observe(['database'])).toBeUndefined();
    expect(t.observe(['database'])).toBeUndefined();
    expect(t.observe(['database', 'broker'])).toBe('not ready: broker, database unavailable');
    expect(t.observe(['broker', 'database'])).toBeUndefined();
    expect(t.observe([])).toBe('ready again: every dependency answers');
    expect(t.observe([])).toBeUndefined();
  });

  it('reports a first probe that fails', () => {
    expect(new ReadinessTransitions().observe(['cache'])).toBe('not ready: cache unavailable');
  });

  it('tells a degraded dependency apart from a down one', () => {
    const t = new ReadinessTransitions();
    expect(t.observe([], ['cache'])).toBe('ready, degraded: cache unavailable (served without it)');
    expect(t.observe([], ['cache'])).toBeUndefined();
    expect(t.observe(['database'], ['cache'])).toBe('not ready: database unavailable');
    expect(t.observe([], [])).toBe('ready again: every dependency answers');
  });
});
