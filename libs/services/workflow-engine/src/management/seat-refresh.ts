/**
 * The seat arithmetic of a candidate refresh (docs/management.md, Candidate refresh): pure, no I/O.
 * Given a waiting node visit (its seats, its tasks) and its assignees as resolved now, it answers the
 * new seat list and the task changes that get there, never touching a vote.
 */
import type { VoteValue } from '../engine';
import type { ParkedApproval } from '../runtime/runtime-walk';
import type { TaskRow } from '../runtime/runtime.repository';

export interface SeatRefresh {
  /** The visit's seats after the refresh: the kept ones in their order, then the added ones. */
  seats: string[];
  /** The votes cast at the visit, in the order they were cast (unchanged). */
  votes: VoteValue[];
  added: string[];
  removed: string[];
  /** Open tasks of removed seats: cancelled. */
  cancel: TaskRow[];
  /** Open tasks whose seat moved up in the list (a seat before it was removed), in ascending order of their new place. */
  moves: Array<{ taskId: string; seq: number }>;
  /** Seats whose task opens now. */
  open: number[];
  /** Every seat with an open task after the refresh: someone who can still decide the node. */
  openSeats: number[];
}

/**
 * A seat is removed when its holder is no longer among the resolved assignees, has not voted at
 * this visit, and the seat was not handed over (a transfer or delegation is an assignee's own
 * choice, kept). A resolved assignee without a seat or an open task at the visit gets a new seat.
 * Sequential nodes keep their order: removed seats leave the list, added ones queue at its end,
 * and when the open seat was removed the next one opens.
 */
export function planSeatRefresh(parked: ParkedApproval, tasks: readonly TaskRow[], resolved: readonly string[]): SeatRefresh {
  const sequential = parked.mode.mode === 'sequential';
  const voteRows = tasks
    .filter((t) => (t.status === 'Approved' || t.status === 'Rejected') && t.owner === null)
    .sort((a, b) => (a.decided_at?.getTime() ?? 0) - (b.decided_at?.getTime() ?? 0) || a.seq - b.seq);
  const votes: VoteValue[] = voteRows.map((t) => (t.status === 'Approved' ? 'approve' : 'reject'));
  const openBySeat = new Map(tasks.filter((t) => t.status === 'Pending').map((t) => [t.seq, t]));
  const voted = (seat: number) => (sequential ? seat < votes.length : voteRows.some((t) => t.seq === seat));
  const handedOver = (seat: number) => tasks.some((t) => t.seq === seat && (t.status === 'Transferred' || t.status === 'Delegated'));
  const wanted = new Set(resolved);

  const removedSeats = new Set<number>();
  const removed: string[] = [];
  parked.assignees.forEach((holder, seat) => {
    if (wanted.has(holder) || voted(seat) || handedOver(seat)) return;
    const open = openBySeat.get(seat);
    if (open && open.owner !== null) return;
    removedSeats.add(seat);
    removed.push(holder);
  });
  const present = new Set([...parked.assignees, ...[...openBySeat.values()].map((t) => t.assignee)]);
  const added = resolved.filter((s) => !present.has(s));

  const newPlace = new Map<number, number>();
  const kept: string[] = [];
  parked.assignees.forEach((holder, seat) => {
    if (removedSeats.has(seat)) return;
    newPlace.set(seat, kept.length);
    kept.push(holder);
  });
  const seats = [...kept, ...added];
  const cancel = [...removedSeats].flatMap((seat) => {
    const open = openBySeat.get(seat);
    return open ? [open] : [];
  });
  const moves: SeatRefresh['moves'] = [];
  const openSeats: number[] = [];
  for (const [seat, task] of [...openBySeat].sort(([a], [b]) => a - b)) {
    const place = newPlace.get(seat);
    if (place === undefined) continue;
    openSeats.push(place);
    if (place !== seat) moves.push({ taskId: task.id, seq: place });
  }
  const open: number[] = [];
  if (!sequential) added.forEach((_, i) => open.push(kept.length + i));
  else if (openSeats.length === 0 && seats.length > votes.length) open.push(votes.length);
  openSeats.push(...open);
  return { seats, votes, added, removed, cancel, moves, open, openSeats };
}
