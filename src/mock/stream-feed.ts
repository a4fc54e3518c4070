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
  /**
   * Writes one piece of articles in order. False: the socket's buffer is
   * full (the client reads slowly), so the feed waits for `whenWritable`
   * instead of piling articles up in memory.
   */
  articles(items: readonly FeedArticle[]): boolean;
  /** Calls back once the socket took what was buffered (at once when it has room). */
  whenWritable(ready: () => void): void;
  heartbeat(): void;
  error(envelope: ApiErrorEnvelope): void;
  /** Ends the stream cleanly after an error event. */
  end(): void;
  /** Cuts the connection abruptly (drop-after-N). */
  cut(): void;
  /** Bytes written and not yet taken by the socket (StreamSessions.bufferedBytes). */
  buffered(): number;
}

export interface FeedArticle {
  readonly id: number;
  /** The article's JSON text (preview text for test keys). */
  readonly json: string;
}

/**
 * Most articles in one piece (one write to the socket), and the longest a
 * feed sends pieces before it lets the event loop turn: a replay of tens of
 * thousands goes out slice by slice while every other request is answered,
 * and a connection never holds more than one piece beyond the socket's own
 * buffer in this process.
 */
export const PIECE_ARTICLES = 64;
export const SLICE_MS = 10;
/**
 * How much further behind the newest article a client may fall than it has
 * been on this connection, in articles indexed (matching or not), before it
 * is dropped with an error event: a reader slower than the publishing rate
 * would otherwise never catch up. A replay's first backlog does not count
 * against it, only a backlog that grows.
 */
export const MAX_LAG_ARTICLES = 50_000;

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

/**
 * A stream is a position in the journal (what was indexed, in order), sent
 * forward piece by piece as fast as the client takes them: a replay and the
 * live articles are the same walk, nothing is queued per client, and points
 * are charged for what is written to the socket, never for what waits.
 */
export class StreamFeed {
  readonly session: OpenSession;
  private unsubscribe: (() => void) | undefined;
  private heartbeatTimer: MockTimer | undefined;
  private readonly lifetimeTimer: MockTimer;
  private finished = false;
  private sentHere = 0;
  private readonly scenario: ReturnType<typeof streamScenario>;
  /** The journal position of the next article to consider; set by start(). */
  private cursor = 0;
  /** The smallest backlog seen on this connection (see MAX_LAG_ARTICLES). */
  private leastLag = Number.POSITIVE_INFINITY;
  /** A piece is on its way to the socket, or the next walk is scheduled. */
  private busy = false;
  /** The latest batch announced, in hand: live articles are not made again from the store. */
  private recent: { position: number; articles: readonly Article[] } | undefined;

  /** Throws ER0360 (429) when the key is at its cap: call before answering. */
  constructor(
    private readonly ctx: FeedContext,
    private readonly out: FeedOutput,
  ) {
    this.scenario = streamScenario(ctx.scenario);
    // The filters as of the connection; a bad one throws here, before the session opens.
    this.lastGoodNow = ctx.clock.now();
    ctx.matcherAt(this.lastGoodNow);
    this.session = ctx.sessions.open(
      ctx.account,
      ctx.transport,
      ctx.filters,
      (error) => this.fail(error),
      () => out.buffered(),
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
   * Starts after `lastEventId` (a replay of what was indexed since, within
   * `stream.max_age`), at a journal `position`, or at the journal's end (only
   * what is indexed from now on). The position is taken in this tick, so no
   * article indexed meanwhile can fall between the replay and what is live.
   */
  start(from: { lastEventId: string } | { position: number } | undefined): void {
    if (this.finished || this.unsubscribe !== undefined) return;
    const { journal } = this.ctx;
    this.cursor =
      from === undefined
        ? journal.end
        : 'lastEventId' in from
          ? journal.positionAfter(from.lastEventId, this.ctx.maxAgeMs)
          : Math.max(journal.first, from.position);
    this.unsubscribe = this.ctx.bus.subscribe((articles) => {
      // The journal subscribed first: the batch is its last entries.
      this.recent = { position: journal.end - articles.length, articles };
      this.pump();
    });
    this.pump();
  }

  /** Replays again after a `resume` on a stream already live: the client drops what it has. */
  replay(lastEventId: string): void {
    if (this.finished || this.unsubscribe === undefined) return;
    const from = this.ctx.journal.positionAfter(lastEventId, this.ctx.maxAgeMs);
    if (from < this.cursor) {
      this.cursor = from;
      this.leastLag = Number.POSITIVE_INFINITY;
    }
    this.pump();
  }

  /**
   * Sends pieces while the socket takes them, for one slice of time; then
   * goes on after a turn of the event loop, or once a full socket drained.
   */
  private pump(): void {
    if (this.finished || this.busy) return;
    const sliceEnd = performance.now() + SLICE_MS;
    const matches = this.matcher();
    const { journal } = this.ctx;
    for (;;) {
      if (this.cursor >= journal.end) return;
      const lag = journal.end - this.cursor;
      this.leastLag = Math.min(this.leastLag, lag);
      if (
        this.cursor < journal.first ||
        lag > this.leastLag + (this.ctx.sessions.maxLag ?? MAX_LAG_ARTICLES)
      ) {
        this.fail(
          new MockHttpError(
            503,
            undefined,
            `The client reads the stream slower than articles are indexed and fell ${lag} articles behind; the stream ends. Reconnect with Last-Event-ID to go on.`,
          ),
        );
        return;
      }
      const { piece, broke } = this.nextPiece(matches);
      const room = piece.length === 0 || this.out.articles(piece);
      if (broke) {
        this.fail(
          new MockHttpError(402, 'ER0301', 'No points remaining on this API key; the stream ends.'),
        );
        return;
      }
      if (this.scenario !== undefined && this.sentHere >= this.scenario.after) {
        this.endScenario();
        return;
      }
      if (!room) {
        this.busy = true;
        this.out.whenWritable(() => this.resume());
        return;
      }
      if (performance.now() >= sliceEnd) {
        // Other requests go first; the rest follows.
        this.busy = true;
        setImmediate(() => this.resume());
        return;
      }
    }
  }

  private resume(): void {
    this.busy = false;
    this.pump();
  }

  /** The next matching articles from the cursor, charged; `broke`: the points ran out. */
  private nextPiece(matches: (id: number) => boolean): { piece: FeedArticle[]; broke: boolean } {
    const { journal, account } = this.ctx;
    const piece: FeedArticle[] = [];
    while (this.cursor < journal.end && piece.length < PIECE_ARTICLES) {
      const position = this.cursor;
      const id = journal.idAt(position);
      if (matches(id)) {
        if (account.mode === 'live' && account.points <= 0) return { piece, broke: true };
        const json = this.jsonAt(position, id);
        if (json !== undefined) {
          account.charge(1);
          piece.push({ id, json });
          this.session.sent(id);
          this.sentHere++;
        }
      }
      this.cursor++;
      if (this.scenario !== undefined && this.sentHere >= this.scenario.after) break;
    }
    return { piece, broke: false };
  }

  /**
   * The JSON text of the article at a journal position: kept by the
   * journal, else in hand when just announced, else made again from the
   * store (about a millisecond). Test keys get the preview.
   */
  private jsonAt(position: number, id: number): string | undefined {
    const preview = this.ctx.account.mode === 'test';
    const kept = this.ctx.journal.textAt(position);
    if (kept !== undefined && !preview) return kept;
    let article: Article | undefined;
    const recent = this.recent;
    if (recent !== undefined && position >= recent.position) {
      const inHand = recent.articles[position - recent.position];
      if (inHand !== undefined && inHand.id === id) article = inHand;
    }
    article ??= kept === undefined ? this.ctx.journal.article(id) : (JSON.parse(kept) as Article);
    if (article === undefined) return undefined;
    return JSON.stringify(preview ? previewArticle(article) : article);
  }

  /** The `*-after-N` scenario, once its N article events were sent. */
  private endScenario(): void {
    const s = this.scenario!;
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
