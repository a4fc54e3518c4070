/**
 * One reconnecting loop for both stream transports: it reconnects on any
 * drop, on an idle connection (no byte for 3 heartbeat intervals; heartbeats
 * reset the watchdog) and on ER0362, waiting the server's `retry:` with
 * backoff and jitter, and always says where it stopped (`Last-Event-ID`, or
 * a WebSocket `resume`): the last article handed out, else the position the
 * server told at connect, else (a server that tells none) what the search
 * found since the first connection (`catchUp`). A bounded set of seen ids
 * drops the articles a replay sends again, and nothing at or below the id
 * it started after is handed out, so the consumer never gets one twice.
 *
 * Pull-based: the next batch is read from the socket only once the consumer
 * asks for it, so a slow writer slows the stream instead of filling memory.
 * The consumer's own writing time never counts as idle time.
 */
import { ApiError, InterruptedError, NewsError } from '../errors.js';
import { classifyNetworkError } from '../network-errors.js';
import { redactText } from '../redact.js';
import { sleep as defaultSleep } from '../sleep.js';
import { isBug, networkFailure, retryable, streamApiError } from './stream-failures.js';
import {
  type GiveUpPolicy,
  givesUp,
  reconnectDelay,
  waitWithinBudget,
} from './stream-reconnect.js';
import type {
  BehindInfo,
  OpenInfo,
  ReconnectInfo,
  RestoredInfo,
  StreamArticle,
  StreamEnd,
  StreamItem,
  StreamTransport,
} from './stream-types.js';
import type { SleepFn } from '../types.js';
import { STREAM_PROTOCOL } from '../../params/stream-params.js';

/** The contract's heartbeat interval. */
export const HEARTBEAT_MS = STREAM_PROTOCOL.heartbeatMs;
/** Until the server says otherwise with `retry:`. */
export const DEFAULT_RETRY_MS = STREAM_PROTOCOL.retryMs;
export const MAX_RECONNECT_DELAY_MS = 30_000;
export const SEEN_IDS = 10_000;

export interface StreamSessionOptions {
  readonly transport: StreamTransport;
  /** The stream URL, query included. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Where to resume from on the first connection (a saved state). Ids grow
   * in indexing order, so an article at or below it was written before and
   * is dropped whatever the server sends.
   */
  readonly lastEventId?: string | undefined;
  /** Idle timeout = 3 × this. */
  readonly heartbeatMs?: number | undefined;
  /** Until the server's `retry:`. */
  readonly retryMs?: number | undefined;
  readonly maxDelayMs?: number | undefined;
  /** Consecutive failed connection attempts before giving up; a working stream that drops resets it. */
  readonly maxFailures: number;
  /**
   * Once a connection was accepted: give up after this long without one
   * instead of after `maxFailures` attempts (429s still count attempts).
   * Undefined: attempts only. See stream-reconnect.ts.
   */
  readonly maxOutageMs?: number | undefined;
  readonly seenCapacity?: number | undefined;
  readonly signal: AbortSignal;
  /** Redacted from any message (the key may travel in the URL). */
  readonly apiKey?: string | undefined;
  /**
   * A connection was accepted (`news stream` starts opening its output here,
   * not before: a refused key leaves the file as it was). Reading goes on
   * meanwhile, so the stream's position is never left unread in a buffer.
   */
  readonly onOpen?: ((info: OpenInfo) => void) | undefined;
  readonly onReconnect?: ((info: ReconnectInfo) => void) | undefined;
  /** A connection was accepted after failed attempts. */
  readonly onRestored?: ((info: RestoredInfo) => void) | undefined;
  /** Said once: the service's ids are below the one the session started after. */
  readonly onBehind?: ((info: BehindInfo) => void) | undefined;
  /**
   * Against a server that tells no position at connect: the articles
   * published since `since` (the first connection), oldest id first, fetched
   * another way (the CLI uses the search endpoint). Called when a reconnect
   * has no id to resume from, before the new connection's live articles.
   */
  readonly catchUp?:
    | ((since: Date, signal: AbortSignal) => AsyncIterable<readonly StreamArticle[]>)
    | undefined;
  readonly now?: (() => Date) | undefined;
  readonly sleep?: SleepFn | undefined;
  readonly random?: (() => number) | undefined;
}

class IdleTimeout extends Error {}

/** The ids most recently written, oldest forgotten first. */
export class SeenIds {
  private readonly set = new Set<string>();
  constructor(private readonly capacity: number) {}
  has(id: string): boolean {
    return this.set.has(id);
  }
  add(id: string): void {
    this.set.add(id);
    // A Set iterates in insertion order: the first key is the oldest.
    if (this.set.size > this.capacity) this.set.delete(this.set.values().next().value as string);
  }
  get size(): number {
    return this.set.size;
  }
}

export { reconnectDelay } from './stream-reconnect.js';
export type {
  BehindInfo,
  OpenInfo,
  ReconnectInfo,
  RestoredInfo,
  StreamArticle,
  StreamEnd,
} from './stream-types.js';

export class StreamSession implements AsyncIterable<StreamArticle[]> {
  /** Where a reconnect resumes: the last article handed out, or the position told at connect. */
  lastEventId: string | undefined;
  /** Set once iteration ended without an error. */
  end: StreamEnd | undefined;
  /** Replayed articles dropped because they were already handed out. */
  duplicates = 0;
  /** Articles dropped for being at or below the id the session started after. */
  belowStart = 0;
  reconnects = 0;
  /** Articles written from the catch-up search (a server without positions). */
  caughtUp = 0;
  /**
   * The error of the last failed connection attempt, as it would be thrown
   * once the attempts run out: a run stopped before that (`--duration`)
   * that never had a connection accepted ends with it.
   */
  lastFailure: Error | undefined;
  private readonly seen: SeenIds;
  /** The numeric id the session started after: nothing at or below it is handed out. */
  private readonly floor: number | undefined;
  /** Everything since this instant reached the consumer or is on its way (no position known yet). */
  private coveredSince: Date | undefined;
  private retryMs: number;

  constructor(private readonly options: StreamSessionOptions) {
    this.lastEventId = options.lastEventId;
    const floor = Number(options.lastEventId);
    this.floor =
      options.lastEventId !== undefined && Number.isSafeInteger(floor) ? floor : undefined;
    this.seen = new SeenIds(options.seenCapacity ?? SEEN_IDS);
    this.retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamArticle[]> {
    const o = this.options;
    const sleep = o.sleep ?? defaultSleep;
    const random = o.random ?? Math.random;
    const nowMs = (): number => (o.now ?? (() => new Date()))().getTime();
    const idleMs = 3 * (o.heartbeatMs ?? HEARTBEAT_MS);
    const policy: GiveUpPolicy = { attempts: o.maxFailures, outageMs: o.maxOutageMs };
    let failures = 0;
    // Since when no connection works (set at the first drop or failure, cleared on accept).
    let downSince: number | undefined;
    try {
      for (;;) {
        if (o.signal.aborted) throw new InterruptedError('interrupted');
        const connection = new AbortController();
        const onAbort = (): void => connection.abort(o.signal.reason);
        o.signal.addEventListener('abort', onAbort, { once: true });
        let watchdog: NodeJS.Timeout | undefined;
        const arm = (): void => {
          clearTimeout(watchdog);
          watchdog = setTimeout(() => connection.abort(new IdleTimeout()), idleMs);
        };
        let reason = 'the server ended the stream';
        let retryAfterMs: number | undefined;
        // A stream that was open and then dropped is not a failed attempt.
        let opened = false;
        const connectedAt = (o.now ?? (() => new Date()))();
        // A reconnect with nothing to resume from: what came meanwhile is searched for.
        const resumedFrom = this.lastEventId;
        let catchUpFrom =
          this.lastEventId === undefined && o.catchUp !== undefined ? this.coveredSince : undefined;
        try {
          arm();
          const batches = o.transport.connect({
            url: o.url,
            headers: o.headers,
            lastEventId: this.lastEventId,
            signal: connection.signal,
            onActivity: arm,
          });
          for await (const items of batches) {
            arm();
            const { articles, stop, accepted } = this.take(items);
            if (accepted !== undefined) {
              if (failures > 0 && downSince !== undefined) {
                o.onRestored?.({ failures, downMs: nowMs() - downSince, lastEventId: resumedFrom });
              }
              failures = 0;
              downSince = undefined;
              opened = true;
              this.coveredSince ??= connectedAt;
              o.onOpen?.(accepted);
            }
            if (articles.length > 0) {
              // The consumer's writing time is not the server's silence.
              clearTimeout(watchdog);
              yield articles;
              arm();
            }
            if (opened && catchUpFrom !== undefined && o.catchUp !== undefined) {
              const since = catchUpFrom;
              catchUpFrom = undefined;
              // The search's time is not the stream's silence either.
              clearTimeout(watchdog);
              for await (const page of o.catchUp(since, connection.signal)) {
                const fresh = page.filter((article) => this.admit(article));
                this.caughtUp += fresh.length;
                if (fresh.length > 0) yield fresh;
              }
              // Everything before this connection came from the search, the rest comes live.
              this.coveredSince = connectedAt;
              arm();
            }
            if (stop === undefined) continue;
            if (stop === 'closed') return;
            if (stop === 'error') throw this.pendingError;
            reason = stop;
            break;
          }
        } catch (error) {
          if (o.signal.aborted) throw new InterruptedError('interrupted');
          downSince ??= nowMs();
          const everOpen = this.coveredSince !== undefined;
          if (connection.signal.reason instanceof IdleTimeout) {
            reason = `no data for ${Math.round(idleMs / 1000)} s`;
          } else if (error instanceof ApiError) {
            if (!retryable(error)) throw streamApiError(error, this.options.apiKey);
            failures++;
            this.lastFailure = streamApiError(error, this.options.apiKey);
            const rateLimited = error.status === 429;
            const outage = { failures, downMs: nowMs() - downSince, everOpen, rateLimited };
            if (givesUp(policy, outage)) throw this.lastFailure;
            reason = `HTTP ${error.status}${error.code ? ` ${error.code}` : ''}`;
            if (error.retryAfter !== undefined) retryAfterMs = error.retryAfter * 1000;
          } else if (error instanceof NewsError || isBug(error)) {
            throw error;
          } else {
            const failure = classifyNetworkError(error);
            if (!opened) failures++;
            reason = redactText(failure.reason, o.apiKey);
            const downMs = nowMs() - downSince;
            const outage = { failures, downMs, everOpen, rateLimited: false };
            this.lastFailure = networkFailure(o.url, failure.timeout, reason, outage, policy);
            if (givesUp(policy, outage)) throw this.lastFailure;
          }
        } finally {
          clearTimeout(watchdog);
          o.signal.removeEventListener('abort', onAbort);
          connection.abort();
        }
        downSince ??= nowMs();
        const downMs = nowMs() - downSince;
        const everOpen = this.coveredSince !== undefined;
        const backoff = reconnectDelay(
          failures,
          this.retryMs,
          o.maxDelayMs ?? MAX_RECONNECT_DELAY_MS,
          random,
        );
        const delayMs = Math.max(
          retryAfterMs ?? 0,
          waitWithinBudget(backoff, policy, { downMs, everOpen }),
        );
        this.reconnects++;
        o.onReconnect?.({
          failures,
          delayMs,
          reason,
          lastEventId: this.lastEventId,
          downMs,
          everOpen,
        });
        await sleep(delayMs, o.signal);
      }
    } finally {
      this.end ??= { reason: 'stopped' };
    }
  }

  /**
   * The new articles of a batch, and whether the connection must end:
   * `closed` (ER0364, the end), a reason to reconnect (ER0362, a server
   * error), or undefined. Any other error event is thrown, typed.
   */
  private take(items: readonly StreamItem[]): {
    articles: StreamArticle[];
    stop: string | undefined;
    /** Set when the connection was accepted in this batch. */
    accepted: OpenInfo | undefined;
  } {
    const articles: StreamArticle[] = [];
    let accepted: OpenInfo | undefined;
    for (const item of items) {
      if (item.kind === 'article') {
        const article: StreamArticle =
          item.json === undefined
            ? { id: item.id, article: item.article }
            : { id: item.id, article: item.article, json: item.json };
        if (this.admit(article)) articles.push(article);
      } else if (item.kind === 'open') {
        accepted = { sessionId: item.sessionId, mode: item.mode };
      } else if (item.kind === 'position') {
        // Where this stream started: resume from it until an article says more.
        this.lastEventId ??= item.id;
        this.checkBehind(item.id, 'position');
      } else if (item.kind === 'retry') {
        if (item.ms >= 0) this.retryMs = item.ms;
      } else {
        const detail = item.envelope?.errors?.[0];
        const code = detail?.code;
        if (code === 'ER0364') {
          this.end = {
            reason: 'closed',
            message: redactText(detail?.message ?? 'the session was closed', this.options.apiKey),
          };
          return { articles, stop: 'closed', accepted };
        }
        if (code === 'ER0362')
          return { articles, stop: 'session lifetime reached (ER0362)', accepted };
        const status = detail?.status ?? 500;
        const error = ApiError.from(status, item.envelope ?? item.text);
        if (status >= 500)
          return { articles, stop: `server error on the stream (${error.message})`, accepted };
        // Written before the error surfaces: what arrived stays written.
        if (articles.length > 0) {
          this.pendingError = streamApiError(error, this.options.apiKey);
          return { articles, stop: 'error', accepted };
        }
        throw streamApiError(error, this.options.apiKey);
      }
    }
    return { articles, stop: undefined, accepted };
  }

  /** Whether the article is new; the last one admitted is where a reconnect resumes. */
  private admit(article: StreamArticle): boolean {
    if (this.seen.has(article.id)) {
      this.duplicates++;
      return false;
    }
    if (this.atOrBelowStart(article.id)) {
      this.belowStart++;
      this.checkBehind(article.id, 'article');
      return false;
    }
    this.seen.add(article.id);
    this.lastEventId = article.id;
    return true;
  }

  /**
   * Said once: the service is below the id the session started after. A
   * replay never sends an id at or below the one it resumes after, so an
   * article below it (or a position told at connect) means the service's ids
   * went back: a restarted mock, another service, an edited watermark. A
   * position of 0 is "nothing indexed yet" (the mock's), not a place.
   */
  private checkBehind(id: string, from: BehindInfo['from']): void {
    if (this.behindTold || this.floor === undefined) return;
    const n = Number(id);
    if (!Number.isSafeInteger(n) || n >= this.floor || (from === 'position' && n <= 0)) return;
    this.behindTold = true;
    this.options.onBehind?.({ id, startAfter: String(this.floor), from });
  }

  private behindTold = false;

  /** Written by an earlier run: a replay, or a server whose ids went back (a restarted mock). */
  private atOrBelowStart(id: string): boolean {
    if (this.floor === undefined) return false;
    const n = Number(id);
    return Number.isSafeInteger(n) && n <= this.floor;
  }

  private pendingError: Error | undefined;
}
