import { FLEET_SERVICE_NAMES } from '@lp/contracts';
import { fleetServices } from './fleet-services';

describe('fleetServices', () => {
  it('names the same services as the contracts, which operations asks for catalogs and diagnostics', () => {
    expect(fleetServices.map((s) => s.name).sort()).toEqual([...FLEET_SERVICE_NAMES].sort());
  });

  it('declares every job with its own service as the source, under a unique JobName', () => {
    const names = fleetServices.flatMap((s) => (s.jobs ?? []).map((job) => (expect(job.source).toBe(s.name), job.jobName)));
    expect(new Set(names).size).toBe(names.length);
  });
});
