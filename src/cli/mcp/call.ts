/**
 * One tools/call, start to end: the arguments checked, the command's own
 * handler run in a call runtime (call-runtime.ts) behind the budget guard
 * (guarded-client.ts), the output shaped into a result (result.ts).
 * export_news is the search written to a file of the export folder.
 */
import { UsageError } from '../../api/errors.js';
import type { NewsClient } from '../../api/index.js';
import { formatFromPath, isFormatName } from '../../output/formats.js';
import type { FormatName } from '../../output/types.js';
import type { Runtime } from '../runtime/runtime.js';
import { parseArguments } from './arguments.js';
import { type LogLevel, callRuntime } from './call-runtime.js';
import { continuation } from './continuation.js';
import { exportPath } from './export-folder.js';
import { CallTap, guardClient } from './guarded-client.js';
import { PageCache } from './page-cache.js';
import type { PointsBudget } from './points.js';
import { fitResult } from './result-budget.js';
import { type ToolResult, failure, listContent, renderList, success } from './result.js';
import { DEFAULT_MAX_RESULT_CHARS } from './schema.js';
import { ARTICLE_FIELDS, type ToolBinding } from './tools.js';

/** What every call of one server run shares. */
export interface Session {
  readonly tools: readonly ToolBinding[];
  readonly budget: PointsBudget;
  /** The export folder, resolved. */
  readonly exportDir: string;
  /** The `news mcp` runtime: settings, io, the process's signal. */
  readonly parent: Runtime;
  /** The client every call shares (started on first use: the mock, undici). */
  readonly client: () => Promise<NewsClient>;
  /** `--max-result-chars`: the most characters a result's text or structuredContent holds. */
  readonly maxResultChars?: number | undefined;
  /**
   * Pages paid for, kept for calls that continue them (`next` after a cut
   * result); made with the first call when the session brings none.
   */
  readonly pages?: PageCache | undefined;
}

/** The pages in hand of sessions that brought none: one cache per server run. */
const pagesInHand = new WeakMap<Session, PageCache>();

function pagesOf(session: Session): PageCache {
  if (session.pages !== undefined) return session.pages;
  let pages = pagesInHand.get(session);
  if (pages === undefined) {
    pages = new PageCache();
    pagesInHand.set(session, pages);
  }
  return pages;
}

/** What the protocol gives a call. */
export interface CallContext {
  readonly signal: AbortSignal;
  readonly log: (level: LogLevel, message: string) => void;
  /** Set when the client asked for progress (a progress token). */
  readonly progress?: ((done: number, total: number | undefined) => void) | undefined;
}

function exportFormat(format: unknown, path: string): FormatName {
  if (format !== undefined) {
    if (typeof format === 'string' && isFormatName(format)) return format;
    throw new UsageError(`format must be a format of news -f (got ${JSON.stringify(format)})`, {
      hint: 'json, jsonl, ndjson, csv, tsv, xml, rss, xlsx, parquet or table',
    });
  }
  const fromPath = formatFromPath(path);
  if (fromPath === undefined) {
    throw new UsageError(`cannot tell the format from the file name "${path}"`, {
      hint: 'add an extension (.csv, .parquet, …) or give format',
    });
  }
  return fromPath;
}

export async function callTool(
  session: Session,
  binding: ToolBinding,
  args: Readonly<Record<string, unknown>>,
  context: CallContext,
): Promise<ToolResult> {
  const { parent, budget } = session;
  const secret = parent.settings.apiKey;
  const tap = new CallTap();
  const meta = () => ({
    ...budget.meta(),
    points_call: tap.points,
    ...(tap.fromCache ? { from_pages_in_hand: true } : {}),
  });
  let output: string | undefined;
  try {
    const call = parseArguments(binding, args);
    tap.wantCount = call.countTotal;
    if (!binding.exports) {
      tap.cache = pagesOf(session);
      tap.continues = call.page > 1;
      tap.wholeList = binding.list && !binding.pages;
    }
    output = binding.exports ? await exportPath(session.exportDir, args['output']) : undefined;
    const format = output === undefined ? 'json' : exportFormat(args['format'], output);
    const fields =
      call.fields ?? (binding.articles && !binding.exports ? ARTICLE_FIELDS : undefined);
    const signal = AbortSignal.any([parent.signal, context.signal]);
    const run = callRuntime({
      parent,
      tool: binding.definition.name,
      format,
      output,
      fields,
      signal,
      client: async () => guardClient(await session.client(), budget, tap, signal),
      log: context.log,
    });
    const { progress } = context;
    if (binding.exports && progress !== undefined) {
      tap.onPage = (records) => progress(records, call.limit ?? tap.expected);
    }
    try {
      await binding.command.run!(call.input, run.runtime);
    } finally {
      await run.runtime.close();
    }
    if (output !== undefined) {
      const content = {
        path: output,
        uri: `news://exports/${encodeURI(
          output
            .slice(session.exportDir.length + 1)
            .split('\\')
            .join('/'),
        )}`,
        records: tap.records,
        points: tap.points,
        format,
        ...(run.notes.length > 0 ? { notes: run.notes } : {}),
      };
      const text = `export_news: wrote ${tap.records} record${tap.records === 1 ? '' : 's'} to ${output} (${format}, ${tap.points} point${tap.points === 1 ? '' : 's'})`;
      return success(content, text, meta(), secret);
    }
    const content = listContent(binding, call, run.records, tap, run.notes);
    const max = session.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    const name = binding.definition.name;
    const words = { max, noun: binding.articles ? 'articles' : 'records' };
    const fitted = fitResult(content, {
      max,
      articles: binding.articles,
      render: (c) => renderList(name, c, words),
      next: continuation(binding, call, {
        inHand: (content['results'] as unknown[]).length,
        more: content['has_more'] === true,
        cache: tap.cache,
        listKey: tap.listKey,
        fromCache: tap.fromCache,
      }),
    });
    return success(fitted.content, fitted.text, meta(), secret);
  } catch (error) {
    // An export of every page spools beside its file to be resumed (cron/checkpoint.ts);
    // a tool call cannot resume, so a failed or cancelled one leaves nothing behind.
    if (output !== undefined) {
      const { removeCheckpoint } = await import('../run-state/checkpoint.js');
      await removeCheckpoint(output).catch(() => {});
    }
    return failure(error, meta(), secret);
  }
}
