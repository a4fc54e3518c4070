/**
 * The second pass of a counted window (page-window.ts). The pinned window is
 * counted again once the first pass has ended; when the count moved, an
 * article was indexed into the window while its pages were fetched out of
 * order, and one may have been skipped at a page boundary. So the pages are
 * read again one after another (a list that grows while paged one page at a
 * time only shifts down: a record comes twice and is dropped as seen, none is
 * skipped) and what the first pass missed is handed over after all of its
 * pages.
 */
import { NOTHING_NEW_PAGES } from './page-memory.js';
import type { PageReader } from './page-read.js';
import type { RunRequests } from './page-requests.js';
import type { Page, PaginateOptions } from './page-types.js';
import type { RequestSpec } from '../types.js';
import { InterruptedError } from '../errors.js';

export interface SecondPass {
  readonly options: PaginateOptions;
  readonly start: number;
  readonly reader: PageReader;
  readonly requests: RunRequests;
  readonly signal: AbortSignal;
  /** The window's count when it opened, and the closing count on its way. */
  readonly before: number;
  readonly after: Promise<number | undefined>;
  /** Records per page (the first page's). */
  readonly pageSize: number | undefined;
  /** The request of page N, pinned. */
  readonly pageRequest: (page: number) => RequestSpec;
}

/** The closing count; when the window moved, a second pass adds what the first missed. */
export async function* verifyWindow<R>(pass: SecondPass): AsyncGenerator<Page<R>, void, undefined> {
  let after: number | undefined;
  try {
    after = await pass.after;
  } catch (error) {
    if (error instanceof InterruptedError || pass.signal.aborted) throw error;
    after = undefined;
  }
  if (after === pass.before) return;
  pass.options.onEvent?.({ kind: 'moved', before: pass.before, after });
  yield* rescan<R>(pass, after);
}

async function* rescan<R>(
  pass: SecondPass,
  after: number | undefined,
): AsyncGenerator<Page<R>, void, undefined> {
  const { options, reader, requests, pageSize } = pass;
  const { limit, maxPages } = options;
  // Pages expect repeats here, so the bound on a server that goes round in
  // circles is the window's size: what its count fills, and room for a shift.
  const most =
    after === undefined || pageSize === undefined || pageSize === 0
      ? undefined
      : Math.ceil(after / pageSize) + NOTHING_NEW_PAGES;
  reader.restart();
  for (let page = pass.start; ; page++) {
    if (limit !== undefined && reader.handed >= limit) return;
    if (maxPages !== undefined && page >= pass.start + maxPages) return;
    if (!requests.affordable(1)) {
      options.onEvent?.({ kind: 'capped' });
      return;
    }
    const response = await requests.send(pass.pageRequest(page), 'page', pass.signal);
    const read = reader.read<R>(page, response.body, true);
    if (read.records.length > 0) {
      const { envelope, records } = read;
      yield { page, records, envelope, response: { ...response, body: envelope }, rescan: true };
    }
    if (!reader.goesOn(page, read)) return;
    if (most !== undefined && page - pass.start + 1 >= most) {
      reader.cutShort(
        `the second pass read ${most} pages, more than the window's ${after} records fill`,
      );
      return;
    }
  }
}
