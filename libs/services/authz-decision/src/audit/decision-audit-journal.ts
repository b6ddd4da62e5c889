import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

interface Waiting {
  line: string;
  done: () => void;
  failed: (error: Error) => void;
}

/**
 * The local append-only journal of `AUDIT_DURABILITY=strict`: a decision is answered only once its
 * record is on disk, as Vault refuses to answer when its audit device cannot be written.
 *
 * Group commit: appends that arrive while a write and its `fdatasync` are in flight wait and go
 * together in the next one, so the cost is one fdatasync per batch, not per decision, and under load
 * batches grow by themselves. Everything on the file (appends, truncation, close) runs one at a
 * time in arrival order.
 *
 * The journal is the spool file (`DecisionAuditSpool.spoolPath`): a start replays it, and the
 * writer truncates it once every record in it is in the database.
 */
export class DecisionAuditJournal {
  private file?: FileHandle;
  private waiting: Waiting[] = [];
  private flushing?: Promise<void>;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  /** Writes with their fdatasync so far (one per group, however many records it held). */
  commits = 0;

  constructor(readonly path: string) {}

  /** Resolves once `line` is on disk (written and fdatasync'ed); rejects when it cannot be. */
  append(line: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the audit journal is closed'));
    return new Promise<void>((done, failed) => {
      this.waiting.push({ line, done, failed });
      this.schedule();
    });
  }

  /** Empties the file if `stillEmpty()` holds when the file's turn comes (no record was added since it was asked). */
  truncateIf(stillEmpty: () => boolean): Promise<void> {
    return this.run(async () => {
      if (!stillEmpty()) return;
      const file = await this.handle();
      await file.truncate(0);
      await file.datasync();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.run(async () => {
      await this.file?.close();
      this.file = undefined;
    });
  }

  /** One commit at a time; whatever arrives during one is the next group. */
  private schedule(): void {
    this.flushing ??= this.run(() => this.commit()).finally(() => {
      this.flushing = undefined;
      if (this.waiting.length > 0) this.schedule();
    });
  }

  private async commit(): Promise<void> {
    const group = this.waiting;
    this.waiting = [];
    if (group.length === 0) return;
    try {
      const file = await this.handle();
      // A leading newline: if a crash cut the previous write short, the torn line stays on its own.
      await file.write(`\n${group.map((w) => w.line).join('\n')}\n`);
      await file.datasync();
      this.commits++;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      for (const w of group) w.failed(failure);
      return;
    }
    for (const w of group) w.done();
  }

  private async handle(): Promise<FileHandle> {
    if (!this.file) {
      await mkdir(dirname(this.path), { recursive: true });
      this.file = await open(this.path, 'a');
    }
    return this.file;
  }

  private run(work: () => Promise<void>): Promise<void> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
