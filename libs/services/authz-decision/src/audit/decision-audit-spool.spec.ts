import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecisionAuditSpool } from './decision-audit-spool';

describe('DecisionAuditSpool files', () => {
  let home: string;
  let umask: number;

  beforeEach(() => {
    umask = process.umask(0o022); // the usual default: without explicit modes the spool was 0644
    home = mkdtempSync(join(tmpdir(), 'lp-spool-'));
  });

  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    process.umask(umask);
  });

  it('are readable by the owner only, whatever the umask (AUDIT_SPOOL_DIR may lie outside DATA_DIR)', () => {
    const spool = new DecisionAuditSpool(join(home, 'audit-spool', 'host'));
    const record = { decisionId: '0b8a4c1e-8a4f-4c1e-9a4f-0b8a4c1e8a4f', json: '{"decisionId":"0b8a4c1e-8a4f-4c1e-9a4f-0b8a4c1e8a4f"}' };
    spool.append([record]);
    spool.appendRejected(record, 'test');
    expect(statSync(spool.directory).mode & 0o777).toBe(0o700);
    expect(statSync(spool.spoolPath).mode & 0o777).toBe(0o600);
    expect(statSync(spool.rejectedPath).mode & 0o777).toBe(0o600);
  });
});
