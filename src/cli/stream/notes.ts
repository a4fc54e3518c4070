/**
 * What `news stream` says on stderr while it runs: every reconnect (why,
 * when, from which id) and its end, without -v, so an outage is never
 * silent; and the one warning of a service whose ids are below where the
 * run starts, which would otherwise write nothing, for good, without a word.
 */
import type { BehindInfo, ReconnectInfo, RestoredInfo } from '../../api/stream/stream-session.js';
import { formatSpan } from '../../api/stream/stream-reconnect.js';

/** `2026-11-27T21:14:03Z`: when, in a log a cron job keeps. */
function stamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** What the session gives up on: the outage budget of a stream that worked, else the attempts. */
export interface GiveUp {
  readonly attempts: number;
  readonly outageMs: number | undefined;
}

export function reconnectNote(r: ReconnectInfo, now: Date, giveUp: GiveUp): string {
  const wait = r.delayMs < 1000 ? `${r.delayMs} ms` : `${(r.delayMs / 1000).toFixed(1)} s`;
  const from = r.lastEventId === undefined ? 'with no position yet' : `after id ${r.lastEventId}`;
  const timed = giveUp.outageMs !== undefined && r.everOpen;
  const limit = timed
    ? `gives up after ${formatSpan(giveUp.outageMs!)} down`
    : `attempt ${r.failures + 1} of ${giveUp.attempts + 1}`;
  let what: string;
  if (!r.everOpen) what = `cannot connect (${r.reason})`;
  else if (r.failures === 0) what = `the stream dropped (${r.reason})`;
  else what = `reconnect failed (${r.reason}), down ${formatSpan(r.downMs)}`;
  const tail = r.failures === 0 && r.everOpen ? '' : ` (${limit})`;
  return `${stamp(now)} ${what}; reconnecting in ${wait} ${from}${tail}`;
}

export function restoredNote(r: RestoredInfo, now: Date): string {
  const attempts = `${r.failures} failed attempt${r.failures === 1 ? '' : 's'}`;
  const from = r.lastEventId === undefined ? '' : `, resuming after id ${r.lastEventId}`;
  return `${stamp(now)} the stream is back after ${formatSpan(r.downMs)} down (${attempts})${from}`;
}

/** `where`: the state file, or `--last-event-id`. */
export function behindWarning(b: BehindInfo, where: string): string {
  const service =
    b.from === 'position' ? `the service is at id ${b.id}` : `the service sent id ${b.id}`;
  const start =
    where === '--last-event-id'
      ? `--last-event-id ${b.startAfter}`
      : `the watermark ${b.startAfter} of ${where}`;
  const fix =
    where === '--last-event-id'
      ? 'give a lower --last-event-id, or none'
      : 'if the service started its ids again (a restarted mock, another --base-url), --state-reset starts the state afresh';
  return `${service}, below ${start}: nothing is written until its ids pass ${b.startAfter}; ${fix}`;
}
