import { EntityManager } from 'typeorm';

/** Why history rows may be deleted: moving an instance to the archive, or purging it (retention, deletion). */
export type HistoryRemoval = 'archive' | 'purge';

/**
 * Runs `remove` with the transaction-local purpose the append-only triggers of the history tables
 * let deletes through for (migration CreateHistoryTables), and clears it right after, so nothing
 * later in the transaction inherits it. Any other DELETE of those tables still fails.
 */
export async function withHistoryRemoval<T>(manager: EntityManager, purpose: HistoryRemoval, remove: () => Promise<T>): Promise<T> {
  await manager.query(`SELECT set_config('workflow.history_removal', $1, true)`, [purpose]);
  try {
    return await remove();
  } finally {
    await manager.query(`SELECT set_config('workflow.history_removal', '', true)`);
  }
}
