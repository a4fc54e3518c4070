/**
 * What a stream sends, whatever carries it (server-sent events in stream.ts,
 * WebSocket frames in stream-ws.ts): the replay after a known id, then the
 * live matching articles; heartbeats; 1 point per article event for live keys
 * (test keys get preview text and pay nothing); ER0301 when the points run
 * out, ER0362 at the end of the session's lifetime, ER0364 when the session
 * is closed through the sessions endpoint, and the `*-after-N` scenarios.
 */
import type { ApiErrorEnvelope } from '../api/errors.js';
import type { Account } from './accounts.js';
import type { ArticleBus } from './article-bus.js';
import type { MockClock, MockTimer } from './clock.js';
import { MockHttpError, errorEnvelope } from './error-envelope.js';
import { type Scenario, streamScenario } from './faults.js';
import type { Article } from './fixtures/article-types.js';
import { testModeArticle as previewArticle } from './search/test-mode.js';
import type { StreamJournal } from './stream-journal.js';
import type { OpenSession, StreamSessions, StreamTransportName } from './stream-sessions.js';
import { STREAM_PROTOCOL } from '../params/stream-params.js';

export const HEARTBEAT_MS = STREAM_PROTOCOL.heartbeatMs;
/** The longest a stream stays open (mock time); then ER0362 and the client reconnects. */
export const MAX_SESSION_LIFETIME_MS = 60 * 60_000;
/**
 * The heartbeat interval in mock milliseconds: 15 mock seconds, but never
 * longer than the contract's 15 real seconds. A client's idle watchdog (no
 * byte for 3 heartbeats, 45 s) runs on the wall clock, which the time scale
 * does not slow: scaled like the mock's other timers, heartbeats came every
 * 60 s at `--time-scale 4` and a healthy idle stream was dropped as dead.
 * Faster mocks (scale < 1) beat faster, as before.
 */
export function heartbeatMockMs(timeScale: number): number {
  return HEARTBEAT_MS / Math.max(1, timeScale);
}

/** The `retry:` the SSE stream announces, in mock milliseconds (so × time scale on the wire). */
export const RETRY_MS = STREAM_PROTOCOL.retryMs;

/** How one transport writes. */
export interface FeedOutput {
  article(id: number, payload: unknown): void;
  heartbeat(): void;
  error(envelope: ApiErrorEnvelope): void;
  /** Ends the stream cleanly after an error event. */
  end(): void;
  /** Cuts the connection abruptly (drop-after-N). */
  cut(): void;
}

export interface FeedContext {
  account: Account;
  clock: MockClock;
  requestId: string;
  scenario: Scenario | undefined;
  /** The request's filters (without stream.max_age), for the sessions list. */
  filters: Record<string, unknown>;
  /** The filters as of `now`, over indexed articles by id (stream-request.ts). */
  matcherAt(now: Date): (id: number) => boolean;
  maxAgeMs: number;
  bus: ArticleBus;
  journal: StreamJournal;
  sessions: StreamSessions;
  transport: StreamTransportName;
}

export class StreamFeed {
  readonly session: OpenSession;
  private unsubscribe: (() => void) | undefined;
  private heartbeatTimer: MockTimer | undefined;
  private readonly lifetimeTimer: MockTimer;
  private finished = false;
  private sentHere = 0;
  private readonly scenario: ReturnType<typeof streamScenario>;

  /** Throws ER0360 (429) when the key is at its cap: call before answering. */
  constructor(
    private readonly ctx: FeedContext,
    private readonly out: FeedOutput,
  ) {
    this.scenario = streamScenario(ctx.scenario);
    // The filters as of the connection; a bad one throws here, before the session opens.
    this.lastGoodNow = ctx.clock.now();
    ctx.matcherAt(this.lastGoodNow);
    this.session = ctx.sessions.open(ctx.account, ctx.transport, ctx.filters, (error) =>
      this.fail(error),
    );
    this.lifetimeTimer = ctx.clock.setTimeout(() => {
      this.fail(
        new MockHttpError(
          408,
          'ER0362',
          'Maximum stream session lifetime reached; reconnect with Last-Event-ID to go on.',
        ),
      );
    }, MAX_SESSION_LIFETIME_MS);
    const interval = heartbeatMockMs(ctx.clock.timeScale);
    const beat = (): void => {
      if (this.finished) return;
      out.heartbeat();
      this.heartbeatTimer = ctx.clock.setTimeout(beat, interval);
    };
    this.heartbeatTimer = ctx.clock.setTimeout(beat, interval);
  }

  /**
   * Sends the replay (articles indexed after `lastEventId`, or after
   * `position` in the journal), then goes live. Synchronous, so no article
   * indexed meanwhile can fall between the two.
   */
  start(from: { lastEventId: string } | { position: number } | undefined): void {
    if (this.finished || this.unsubscribe !== undefined) return;
    if (from !== undefined) {
      const replay =
        'lastEventId' in from
          ? this.ctx.journal.after(from.lastEventId, this.ctx.maxAgeMs)
          : this.ctx.journal.since(from.position);
      if (!this.replayIds(replay)) return;
    }
    this.unsubscribe = this.ctx.bus.subscribe((articles) => {
      this.deliver(articles);
    });
  }

  /** Replays again after a `resume` on a stream already live: the client drops what it has. */
  replay(lastEventId: string): void {
    this.replayIds(this.ctx.journal.after(lastEventId, this.ctx.maxAgeMs));
  }

  /** Sends the matching ones of articles just announced (in hand). */
  private deliver(articles: readonly Article[]): boolean {
    if (this.finished || articles.length === 0) return !this.finished;
    const matches = this.matcher();
    for (const article of articles) {
      if (matches(article.id) && !this.send(article)) return false;
    }
    return true;
  }

  /** Sends the matching ones of a replay: only those are made again from the store. */
  private replayIds(ids: readonly number[]): boolean {
    if (this.finished || ids.length === 0) return !this.finished;
    const matches = this.matcher();
    for (const id of ids) {
      if (!matches(id)) continue;
      const article = this.ctx.journal.article(id);
      if (article !== undefined && !this.send(article)) return false;
    }
    return true;
  }

  /** The last moment the filters could be read at (see `matcher`). */
  private lastGoodNow: Date;

  /**
   * The filters at this moment (windows end at "now"). Rules on the request
   * (ER0110's 31 days for a title search) were checked at connect: a window
   * that grows past them while the stream is open is read as of the last
   * moment it could be, rather than throwing in the article bus and going
   * silent. Rebuilt each time, so they see the articles indexed since.
   */
  private matcher(): (id: number) => boolean {
    const now = this.ctx.clock.now();
    try {
      const matches = this.ctx.matcherAt(now);
      this.lastGoodNow = now;
      return matches;
    } catch {
      return this.ctx.matcherAt(this.lastGoodNow);
    }
  }

  private send(article: Article): boolean {
    const { account } = this.ctx;
    if (account.mode === 'live' && account.points <= 0) {
      this.fail(
        new MockHttpError(402, 'ER0301', 'No points remaining on this API key; the stream ends.'),
      );
      return false;
    }
    account.charge(1);
    this.out.article(article.id, account.mode === 'test' ? previewArticle(article) : article);
    this.session.sent(article.id);
    this.sentHere++;
    const s = this.scenario;
    if (s !== undefined && this.sentHere >= s.after) {
      if (s.kind === 'drop') {
        this.stop();
        this.out.cut();
      } else if (s.kind === 'revoke') {
        this.fail(new MockHttpError(401, 'ER0361', 'This API key was revoked.'));
      } else {
        this.fail(
          new MockHttpError(
            408,
            'ER0362',
            'Maximum stream session lifetime reached (X-Mock-Scenario); reconnect to go on.',
          ),
        );
      }
      return false;
    }
    return true;
  }

  /** Sends the error event and ends the stream. */
  fail(error: MockHttpError): void {
    if (this.finished) return;
    this.out.error(errorEnvelope(error, this.ctx.requestId, this.ctx.clock.now()));
    this.stop();
    this.out.end();
  }

  /** The connection ended (or is being ended): forget it. Idempotent. */
  stop(): void {
    if (this.finished) return;
    this.finished = true;
    this.unsubscribe?.();
    this.heartbeatTimer?.cancel();
    this.lifetimeTimer.cancel();
    this.session.release();
  }
}
