/**
 * `news stream`'s own options (everything but the filters and the global
 * options), checked before anything connects: a bad value is exit 2.
 */
import { UsageError } from '../../api/errors.js';
import {
  STREAM_MAX_AGE,
  STREAM_MAX_AGE_RULE,
  STREAM_TRANSPORTS,
  type StreamTransportName,
  parseStreamMaxAge,
} from '../../params/stream-params.js';

export interface StreamOptions {
  transport: StreamTransportName;
  maxEvents: number | undefined;
  durationMs: number | undefined;
  maxAge: number | undefined;
  lastEventId: string | undefined;
  headers: Record<string, string>;
  publishRate: number | undefined;
  /** `--state FILE`: start where the last run stopped, remember where this one does. */
  stateFile: string | undefined;
  stateReset: boolean;
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `90s`, `10m`, `2h`, `500ms`; a bare number is seconds. */
export function parseDuration(raw: string): number | undefined {
  const m = DURATION.exec(raw.trim());
  if (m === null) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] ?? 's']!;
  return ms > 0 && Number.isFinite(ms) ? ms : undefined;
}

/** Headers a user may not set by hand: the key has its own options, the rest is the transport's. */
const RESERVED_HEADERS = new Set([
  'x-api-key',
  'authorization',
  'last-event-id',
  'host',
  'connection',
  'upgrade',
  'content-length',
]);

export function parseStreamOptions(options: Readonly<Record<string, unknown>>): StreamOptions {
  const transport = String(options['transport'] ?? 'sse') as StreamTransportName;
  if (!STREAM_TRANSPORTS.includes(transport)) {
    throw new UsageError(
      `--transport must be ${STREAM_TRANSPORTS.join(' or ')} (got "${String(transport)}")`,
    );
  }
  let maxEvents: number | undefined;
  if (options['maxEvents'] !== undefined) {
    maxEvents = Number(options['maxEvents']);
    if (!Number.isInteger(maxEvents) || maxEvents < 1) {
      throw new UsageError(
        `--max-events must be a whole number of at least 1 (got "${String(options['maxEvents'])}")`,
      );
    }
  }
  let durationMs: number | undefined;
  if (options['duration'] !== undefined) {
    durationMs = parseDuration(String(options['duration']));
    if (durationMs === undefined) {
      throw new UsageError(
        `--duration must be a time such as 90s, 10m or 2h (got "${String(options['duration'])}")`,
      );
    }
  }
  let maxAge: number | undefined;
  if (options['streamMaxAge'] !== undefined) {
    maxAge = parseStreamMaxAge(options['streamMaxAge']);
    if (maxAge === undefined) {
      throw new UsageError(
        `${STREAM_MAX_AGE.flag} ${STREAM_MAX_AGE_RULE} (got "${String(options['streamMaxAge'])}") [${STREAM_MAX_AGE.code}]`,
        { code: STREAM_MAX_AGE.code },
      );
    }
  }
  const headers: Record<string, string> = {};
  for (const header of (options['header'] as string[] | undefined) ?? []) {
    const colon = header.indexOf(':');
    const name = colon > 0 ? header.slice(0, colon).trim().toLowerCase() : '';
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
      throw new UsageError(`--header ${header} must be NAME: VALUE`, {
        hint: 'for example --header "X-Mock-Scenario: drop-after-5"',
      });
    }
    if (RESERVED_HEADERS.has(name)) {
      throw new UsageError(`--header cannot set ${name}`, {
        hint: name === 'last-event-id' ? 'use --last-event-id' : 'the key goes in --api-key',
      });
    }
    headers[name] = header.slice(colon + 1).trim();
  }
  let publishRate: number | undefined;
  if (options['publishRate'] !== undefined) {
    publishRate = Number(options['publishRate']);
    if (!Number.isFinite(publishRate) || publishRate < 0) {
      throw new UsageError(
        `--publish-rate must be a number of articles per minute, 0 or more (got "${String(options['publishRate'])}")`,
      );
    }
  }
  const lastEventId =
    options['lastEventId'] === undefined ? undefined : String(options['lastEventId']).trim();
  if (lastEventId === '') throw new UsageError('--last-event-id must not be empty');
  const stateFile = options['state'] === undefined ? undefined : String(options['state']);
  const stateReset = options['stateReset'] === true;
  if (stateFile !== undefined && lastEventId !== undefined) {
    throw new UsageError('--state and --last-event-id do not go together', {
      hint: 'the state file holds the id to resume after; --state-reset starts it afresh',
    });
  }
  if (stateReset && stateFile === undefined)
    throw new UsageError('--state-reset needs --state FILE');
  return {
    transport,
    maxEvents,
    durationMs,
    maxAge,
    lastEventId,
    headers,
    publishRate,
    stateFile,
    stateReset,
  };
}
