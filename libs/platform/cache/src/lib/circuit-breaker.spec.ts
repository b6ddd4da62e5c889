import { CircuitBreaker, CircuitOpenError } from './circuit-breaker';

describe('CircuitBreaker', () => {
  let clock = 0;
  const changes: string[] = [];
  const breaker = () => new CircuitBreaker({ failureThreshold: 3, openMs: 1000, now: () => clock, onChange: (s) => changes.push(s) });
  const fail = () => Promise.reject(new Error('timeout'));
  const ok = () => Promise.resolve('ok');
  beforeEach(() => {
    clock = 0;
    changes.length = 0;
  });

  it('opens after the threshold of failures in a row, then fails fast without calling', async () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) await expect(b.run(fail)).rejects.toThrow('timeout');
    expect(b.state).toBe('open');
    const call = jest.fn(ok);
    await expect(b.run(call)).rejects.toBeInstanceOf(CircuitOpenError);
    expect(call).not.toHaveBeenCalled();
    expect(changes).toEqual(['open']);
  });

  it('a success resets the count of failures in a row', async () => {
    const b = breaker();
    await expect(b.run(fail)).rejects.toThrow();
    await expect(b.run(fail)).rejects.toThrow();
    await b.run(ok);
    await expect(b.run(fail)).rejects.toThrow();
    expect(b.state).toBe('closed');
  });

  it('lets one probe through after openMs: its success closes the circuit', async () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) await expect(b.run(fail)).rejects.toThrow();
    clock = 1000;
    expect(b.state).toBe('half-open');
    let release!: () => void;
    const probe = b.run(() => new Promise<string>((resolve) => (release = () => resolve('probed'))));
    await expect(b.run(ok)).rejects.toBeInstanceOf(CircuitOpenError); // only one probe at a time
    release();
    await expect(probe).resolves.toBe('probed');
    expect(b.state).toBe('closed');
    await expect(b.run(ok)).resolves.toBe('ok');
    expect(changes).toEqual(['open', 'closed']);
  });

  it('a failed probe opens it for another openMs', async () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) await expect(b.run(fail)).rejects.toThrow();
    clock = 1000;
    await expect(b.run(fail)).rejects.toThrow('timeout');
    expect(b.state).toBe('open');
    clock = 1999;
    await expect(b.run(ok)).rejects.toBeInstanceOf(CircuitOpenError);
    clock = 2000;
    await expect(b.run(ok)).resolves.toBe('ok');
    expect(changes).toEqual(['open', 'closed']);
  });

  it('with a background probe, no caller waits: calls fail fast while the probe tests, and its success closes the circuit', async () => {
    let answerProbe!: (ok: boolean) => void;
    const probe = jest.fn(() => new Promise<void>((resolve, reject) => (answerProbe = (ok) => (ok ? resolve() : reject(new Error('still down'))))));
    const b = new CircuitBreaker({ failureThreshold: 1, openMs: 1000, now: () => clock, probe });
    await expect(b.run(fail)).rejects.toThrow('timeout');
    clock = 1000;
    const call = jest.fn(ok);
    await expect(b.run(call)).rejects.toBeInstanceOf(CircuitOpenError);
    await expect(b.run(call)).rejects.toBeInstanceOf(CircuitOpenError);
    expect(call).not.toHaveBeenCalled();
    expect(probe).toHaveBeenCalledTimes(1);
    answerProbe(false);
    await new Promise((r) => setImmediate(r));
    expect(b.state).toBe('open');
    clock = 2000;
    await expect(b.run(call)).rejects.toBeInstanceOf(CircuitOpenError);
    answerProbe(true);
    await new Promise((r) => setImmediate(r));
    expect(b.state).toBe('closed');
    await expect(b.run(call)).resolves.toBe('ok');
  });
});
