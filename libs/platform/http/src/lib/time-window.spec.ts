import { validate } from 'class-validator';
import { OptionalInstant } from './time-window';

class Window {
  @OptionalInstant('Inclusive')
  from?: string;

  @OptionalInstant('Exclusive')
  to?: string;
}

async function problems(values: Partial<Window>): Promise<Record<string, string[]>> {
  const errors = await validate(Object.assign(new Window(), values));
  return Object.fromEntries(errors.map((e) => [e.property, Object.values(e.constraints ?? {})]));
}

describe('OptionalInstant', () => {
  it('takes an ISO 8601 date-time, or nothing', async () => {
    await expect(problems({ from: '2026-11-21T10:00:00Z', to: '2026-11-21T11:00:00.000+01:00' })).resolves.toEqual({});
    await expect(problems({})).resolves.toEqual({});
  });

  it('refuses anything else with a message naming the field', async () => {
    await expect(problems({ from: 'yesterday', to: '2026-13-45' })).resolves.toEqual({
      from: ['from must be an ISO 8601 date-time'],
      to: ['to must be an ISO 8601 date-time'],
    });
  });
});
