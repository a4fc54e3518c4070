/**
 * `news stream`: checks everything before connecting, then pulls batches of
 * new articles from the reconnecting session (src/api/stream/stream-session.ts) and
 * writes them as they arrive (src/output/live-export.ts). Loaded with
 * import() when the command runs.
 *
 * `--state FILE` (src/cli/run-state/stream-state.ts) starts the stream after the
 * saved id and moves it after each batch has reached the output.
 */
import { InterruptedError, TimeoutError, UsageError } from '../../api/errors.js';
import type { StreamTransport } from '../../api/stream/stream-types.js';
import type { RequestSpec } from '../../api/types.js';
import { STREAM_MAX_AGE, STREAM_PROTOCOL } from '../../params/stream-params.js';
import type { RequestBody } from '../../params/types.js';
import { buildRequestBody } from '../../params/validate.js';
import type { CommandInput } from '../command-spec.js';
import type { Runtime } from '../runtime/runtime.js';
import type { LiveExport } from '../../output/live-export.js';
import { behindWarning, reconnectNote, restoredNote } from './notes.js';
import { type StreamOptions, parseStreamOptions } from './options.js';
import type { FormatName } from '../../output/types.js';

export const DEFAULT_MOCK_PUBLISH_RATE = 60;
/**
 * How long a stream that worked keeps trying without a connection before it
 * gives up, unless --retries says a number of attempts: a service restarted
 * for a deploy, as `stripe listen` rides it out (docs/STREAMS.md).
 */
export const DEFAULT_OUTAGE_MS = 5 * 60_000;

/** The request: the filters as query parameters, in table order, plus `stream.max_age`. */
function streamRequest(filters: RequestBody, options: StreamOptions): RequestSpec {
  const query: Record<string, string | number> = { ...filters };
  if (options.maxAge !== undefined) query[STREAM_MAX_AGE.name] = options.maxAge;
  return {
    method: 'GET',
    path: options.transport === 'ws' ? STREAM_PROTOCOL.wsPath : STREAM_PROTOCOL.ssePath,
    query,
  };
}

/** -f, else the -o extension, else table on a terminal and jsonl in a pipe. */
async function streamFormat(runtime: Runtime): Promise<FormatName> {
  const { settings } = runtime;
  if (settings.format !== undefined || (settings.output !== undefined && settings.output !== '-')) {
    const { chooseFormat } = await import('../export/export-pages.js');
    return chooseFormat(runtime);
  }
  return runtime.io.stdout.isTTY ? 'table' : 'jsonl';
}

export async function runStream(input: CommandInput, runtime: Runtime): Promise<void> {
  const options = parseStreamOptions(input.options);
  // Checked as a search checks them: they are also the catch-up search's filters.
  const filters = buildRequestBody(input.params, { now: runtime.io.now() });
  const spec = streamRequest(filters, options);
  if (runtime.settings.dryRun) {
    await runtime.printDryRun(spec);
    return;
  }
  const format = await streamFormat(runtime);
  const { checkLiveExport, isLiveOutput, openLiveExport } = await import('../../output/index.js');
  const finite = options.maxEvents !== undefined || options.durationMs !== undefined;
  if (!finite && !isLiveOutput(format, runtime.settings.output)) {
    const { resolveDestination } = await import('../../output/destinations/registry.js');
    const destination = resolveDestination(runtime.settings.output);
    if (destination.kind === 'store' && !destination.store.appendable) {
      throw new UsageError(
        `${runtime.settings.output} is an object, uploaded whole at the end: an endless stream needs --max-events N or --duration D`,
        { hint: 'or stream into a local file as records arrive' },
      );
    }
    throw new UsageError(
      `${format}${runtime.settings.output?.endsWith('.gz') ? ' (gzipped)' : ''} is written at the end: an endless stream needs --max-events N or --duration D`,
      { hint: 'or write as records arrive with -f jsonl, ndjson, csv or tsv' },
    );
  }
  const { exportOptionsFor } = await import('../export/export-pages.js');
  const { signal: _paged, ...exportOptions } = exportOptionsFor(
    runtime,
    format,
    runtime.settings.output,
    'article',
    'news stream',
  );
  // With --state, a restarted stream continues the same file.
  const liveOptions = { ...exportOptions, append: options.stateFile !== undefined };
  // A database is opened (and its state locked) before connecting: its refusals come first.
  const database = await (await import('./database-stream.js')).openStreamDatabase(
    runtime,
    spec,
    options.stateFile,
    options.stateReset,
  );
  // Checked now, before any timer or socket; opened once the server accepted the connection.
  if (database === undefined) await checkLiveExport(liveOptions);

  const state =
    database?.state ??
    (options.stateFile === undefined
      ? undefined
      : await (await import('../run-state/stream-state.js')).openStreamState(
          options.stateFile,
          spec,
          options.stateReset,
          () => runtime.io.now(),
          (m) => runtime.report.notice(m),
        ));
  // A kill between writing a batch to FILE and saving the state: the file knows better.
  const { PositionSaver, SAVE_EVERY_MS, fileTellsPosition, resumePoint } = await import(
    './file-position.js'
  );
  const target = {
    output: runtime.settings.output,
    format,
    live: isLiveOutput(format, runtime.settings.output),
    fields: liveOptions.fields,
  };
  // A database commits its rows with the position, so its state is the position.
  const fromFile = database === undefined;
  const startAfter =
    state === undefined
      ? options.lastEventId
      : fromFile
        ? await resumePoint(state.lastEventId, target, options.stateReset)
        : state.lastEventId;
  const saver =
    state === undefined
      ? undefined
      : new PositionSaver(state, fromFile && fileTellsPosition(target) ? SAVE_EVERY_MS : 0);
  // Opened once the server accepted the connection; awaited before the first write.
  let opening: Promise<LiveExport> | undefined;
  let out: LiveExport | undefined;
  try {
    if (runtime.settings.mock) {
      runtime.mockOptions.publishRate = options.publishRate ?? DEFAULT_MOCK_PUBLISH_RATE;
      // The stream opens its own connection to the mock.
      runtime.mockOptions.listen = true;
      // A new mock goes on after the saved id, as the service would: a second run writes new articles.
      const after = Number(startAfter);
      if (startAfter !== undefined && Number.isSafeInteger(after))
        runtime.mockOptions.publishAfterId = after;
    } else if (options.publishRate !== undefined) {
      runtime.report.warn('--publish-rate only shapes the built-in mock (--mock); ignored');
    }
    const client = await runtime.client();
    const prepared = client.prepare(spec);
    const transportOptions = {
      connectTimeoutMs: runtime.settings.timeoutMs,
      env: runtime.io.env,
    };
    const transport: StreamTransport =
      options.transport === 'ws'
        ? new (await import('../../api/stream/stream-ws.js')).WsTransport(transportOptions)
        : new (await import('../../api/stream/stream-sse.js')).SseTransport(transportOptions);
    const { StreamSession } = await import('../../api/stream/stream-session.js');
    const { catchUpSearch } = await import('./catch-up.js');

    // Ctrl-C and --duration both stop the session; only Ctrl-C is an interruption.
    const stop = new AbortController();
    const onInterrupt = (): void => stop.abort(runtime.signal.reason);
    runtime.signal.addEventListener('abort', onInterrupt, { once: true });
    let timeUp = false;
    const timer =
      options.durationMs === undefined
        ? undefined
        : setTimeout(() => {
            timeUp = true;
            stop.abort(new Error('duration reached'));
          }, options.durationMs);

    const giveUp = {
      attempts: runtime.settings.retries,
      outageMs: runtime.settings.retriesSet ? undefined : DEFAULT_OUTAGE_MS,
    };
    const session = new StreamSession({
      transport,
      url: prepared.url,
      headers: { ...prepared.headers, ...options.headers },
      lastEventId: startAfter,
      maxFailures: giveUp.attempts,
      maxOutageMs: giveUp.outageMs,
      signal: stop.signal,
      apiKey: runtime.settings.apiKey,
      onOpen: ({ sessionId }) => {
        runtime.report.debug(`stream open${sessionId ? `: session ${sessionId}` : ''}`);
        // Only now: a refused key or an unreachable server leaves the file as it was.
        if (opening === undefined) {
          opening =
            database === undefined ? openLiveExport(liveOptions) : Promise.resolve(database.output);
          // Its failure is reported where it is awaited.
          opening.catch(() => undefined);
        }
      },
      onReconnect: (r) => runtime.report.notice(reconnectNote(r, runtime.io.now(), giveUp)),
      onRestored: (r) => runtime.report.notice(restoredNote(r, runtime.io.now())),
      onBehind: (b) =>
        runtime.report.warn(behindWarning(b, options.stateFile ?? '--last-event-id')),
      catchUp: catchUpSearch(client, filters),
    });

    let written = 0;
    let lastId: string | undefined;
    try {
      for await (const batch of session) {
        // A batch comes from an accepted connection: the output is being opened.
        out ??= await opening!;
        const output = out;
        const take =
          options.maxEvents === undefined ? batch : batch.slice(0, options.maxEvents - written);
        if (output.takesLines && take.every((a) => a.json !== undefined)) {
          // The text as received: no second JSON.stringify of every article.
          let text = '';
          for (const a of take) text += `${a.json}\n`;
          await output.writeLines(text, take.length);
        } else await output.write(take.map((a) => a.article));
        written += take.length;
        if (output.broken) break;
        const last = take[take.length - 1];
        if (last !== undefined) {
          lastId = last.id;
          // A file written at the end (parquet, xlsx…) holds nothing until finish().
          if (output.live) await saver?.written(last.id, take.length);
        }
        if (options.maxEvents !== undefined && written >= options.maxEvents) break;
      }
    } catch (error) {
      // Accepted but nothing written yet: the output opened anyway (empty, or continued).
      out ??= await opening?.catch(() => undefined);
      const ended = error instanceof InterruptedError && timeUp && !runtime.signal.aborted;
      // --duration ran out before any connection was accepted: that is the network's failure.
      if (ended && opening === undefined) {
        throw (
          session.lastFailure ??
          new TimeoutError(
            `the stream at ${new URL(prepared.url).host} accepted no connection within --duration (${options.durationMs! / 1000} s)`,
          )
        );
      }
      if (!ended) {
        // What arrived stays: a live output keeps its records, a finite one is completed.
        const output = out;
        if (error instanceof InterruptedError || runtime.signal.aborted) {
          const finished =
            output !== undefined &&
            (await output.finish().then(
              () => true,
              () => output.abort().then(() => false),
            ));
          if (finished && !output.live && lastId !== undefined)
            await state?.written(lastId, written);
          if (lastId === undefined && session.lastEventId !== undefined)
            await state?.positioned(session.lastEventId);
          throw new InterruptedError('interrupted');
        }
        if (output?.live) await output.finish().catch(() => output.abort());
        else await output?.abort();
        throw error;
      }
    } finally {
      clearTimeout(timer);
      runtime.signal.removeEventListener('abort', onInterrupt);
      await transport.close().catch(() => undefined);
    }
    out ??= await opening;
    const output = out;
    if (output?.broken) {
      runtime.stdoutClosed = true;
      await output.abort();
      return;
    }
    const path = output === undefined ? undefined : (await output.finish()).path;
    if (!output?.live && lastId !== undefined) await state?.written(lastId, written);
    // No article, but a position: the next run resumes from where this one connected.
    if (lastId === undefined && session.lastEventId !== undefined)
      await state?.positioned(session.lastEventId);
    if (session.end?.reason === 'closed') {
      runtime.report.notice(
        `the stream session was closed on purpose (ER0364): ${session.end.message}`,
      );
    }
    if (session.duplicates > 0) {
      runtime.report.debug(`${session.duplicates} replayed articles were already written; skipped`);
    }
    if (session.belowStart > 0) {
      runtime.report.debug(
        `${session.belowStart} articles at or below id ${startAfter} were not written (written before, or the service's ids went back)`,
      );
    }
    if (session.caughtUp > 0) {
      runtime.report.notice(
        `the server gave no position to resume from: ${session.caughtUp} articles indexed during a reconnect were found through the search endpoint`,
      );
    }
    if (path !== undefined) runtime.report.notice(`wrote ${written} articles to ${path}`);
    else runtime.report.debug(`${written} articles, ${session.reconnects} reconnects`);
  } finally {
    // What reached the output before any failure is remembered, then the lock goes.
    await saver?.flush().finally(() => state?.close());
  }
}
