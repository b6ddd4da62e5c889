import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AuditRecordText, auditRecordFromJson } from './decision-audit-entry';

export const AUDIT_SPOOL_FILE = 'decision-audit.spool.jsonl';
export const AUDIT_REJECTED_FILE = 'decision-audit.rejected.jsonl';

/**
 * The writer's disk copy of records the database has not taken yet: one JSON entry per line,
 * appended and fsynced before the writer moves on, so a crash during an outage loses nothing.
 * Replayed on start; a line already in the database is harmless (the INSERT ignores a known
 * decision id). Removed once every spooled record is written. One directory per running instance.
 *
 * Records PostgreSQL refuses for their content go to a second file, for an operator to look at.
 */
export class DecisionAuditSpool {
  private static readonly claimed = new Set<string>();

  /**
   * The spool of `directory`, or of `directory-2`, `-3`... when another writer of this process holds
   * it (two decision instances in one process, as tests run them): a spool file belongs to one writer.
   * `release()` gives it back.
   */
  static claim(directory: string): DecisionAuditSpool {
    let claimed = directory;
    for (let n = 2; DecisionAuditSpool.claimed.has(claimed); n++) claimed = `${directory}-${n}`;
    DecisionAuditSpool.claimed.add(claimed);
    return new DecisionAuditSpool(claimed);
  }

  readonly spoolPath: string;
  readonly rejectedPath: string;

  release(): void {
    DecisionAuditSpool.claimed.delete(this.directory);
  }

  constructor(readonly directory: string) {
    this.spoolPath = join(directory, AUDIT_SPOOL_FILE);
    this.rejectedPath = join(directory, AUDIT_REJECTED_FILE);
  }

  append(records: readonly AuditRecordText[]): void {
    if (records.length > 0)
      appendDurably(
        this.directory,
        this.spoolPath,
        records.map((r) => r.json),
      );
  }

  appendRejected(record: AuditRecordText, reason: string): void {
    appendDurably(this.directory, this.rejectedPath, [JSON.stringify({ rejectedAt: new Date().toISOString(), reason, entry: JSON.parse(record.json) })]);
  }

  /**
   * Every complete line of the spool file. A line cut short by a crash mid-write is skipped and
   * counted: the record it held was still in memory only, like one recorded a moment later.
   */
  read(): { records: AuditRecordText[]; unreadable: number } {
    if (!existsSync(this.spoolPath)) return { records: [], unreadable: 0 };
    const records: AuditRecordText[] = [];
    let unreadable = 0;
    for (const line of readFileSync(this.spoolPath, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      let record: AuditRecordText | undefined;
      try {
        record = auditRecordFromJson(line);
      } catch {
        record = undefined;
      }
      if (record) records.push(record);
      else unreadable++;
    }
    return { records, unreadable };
  }

  clear(): void {
    rmSync(this.spoolPath, { force: true });
  }
}

function appendDurably(directory: string, path: string, lines: string[]): void {
  // Owner-only whatever the umask: the records name subjects, resources and decisions of every tenant.
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  // A leading newline: if a crash cut the previous append short, the torn line stays on its own.
  const fd = openSync(path, 'a', 0o600);
  try {
    writeSync(fd, `\n${lines.join('\n')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
