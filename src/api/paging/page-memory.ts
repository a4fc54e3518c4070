/**
 * What the pages of a run brought so far: the ids yielded, and a fingerprint
 * of each page whose records have no id. The server is not trusted to page
 * well: a record already yielded (same `id`) is never yielded again, and
 * paging that goes round in circles ends with a reason instead of asking
 * forever:
 * - the server echoes a `page` number that does not advance;
 * - a page of records without ids repeats an earlier one;
 * - a page repeats the page before it (the same records) while the server
 *   echoes no page number that advanced: one that ignores `page`;
 * - NOTHING_NEW_PAGES pages in a row bring no record not seen before.
 *
 * A single page of records already seen is no reason to stop: a list that
 * grows at the top while it is paged shifts down, and its next pages show
 * again what earlier ones brought (a run in indexing order on a busy list
 * sees several such pages in a row, page-pin.ts). Only a run of them longer
 * than any shift the run's own timing can explain is.
 *
 * Ids are a few bytes each: a million records cost tens of MB at most, a
 * price worth not writing a record twice.
 */
export type ApiObject = Record<string, unknown>;
export type Envelope = Record<string, unknown>;

/**
 * Pages in a row without a record not seen before that end a run. A list
 * shifted down repeats at most what the pages fetched before the window was
 * pinned brought (three pages, page-window.ts): ten leaves room to spare.
 */
export const NOTHING_NEW_PAGES = 10;

export class PageMemory {
  readonly #ids = new Set<string>();
  readonly #pages = new Set<string>();
  #lastEnvelopePage: number | undefined;
  #previous: string | undefined;
  #nothingNew = 0;

  /**
   * The records not seen before, and why paging must stop after this page
   * (undefined: it may go on). A second pass over the same list (`rescan`)
   * expects pages it has seen: only a page number that does not advance, or
   * a page that repeats the one before it, stops it.
   */
  take(
    records: readonly ApiObject[],
    received: number,
    envelope: Envelope,
    page: number,
    rescan = false,
  ): { fresh: ApiObject[]; stop: string | undefined } {
    const fresh: ApiObject[] = [];
    const anonymous: ApiObject[] = [];
    const ids = new Set<string>();
    for (const r of records) {
      const id = idKey(r);
      if (id === undefined) {
        anonymous.push(r);
        fresh.push(r);
      } else if (!this.#ids.has(id) && !ids.has(id)) {
        ids.add(id);
        fresh.push(r);
      }
    }
    for (const id of ids) this.#ids.add(id);

    let stop: string | undefined;
    let advanced = false;
    const echoed = envelope['page'];
    if (typeof echoed === 'number' && Number.isFinite(echoed)) {
      if (this.#lastEnvelopePage !== undefined && echoed <= this.#lastEnvelopePage) {
        stop = `page ${page}: the server answered page ${echoed} again`;
      } else advanced = this.#lastEnvelopePage !== undefined;
      this.#lastEnvelopePage = echoed;
    }
    let repeated = false;
    if (anonymous.length > 0) {
      const printed = fingerprint(anonymous);
      repeated = this.#pages.has(printed) && fresh.length === anonymous.length;
      if (repeated && !rescan) stop ??= `page ${page} repeats an earlier page`;
      this.#pages.add(printed);
    }
    const print = fingerprint(records);
    if (received > 0 && print === this.#previous && !advanced) {
      stop ??= `page ${page} repeats the page before it`;
    }
    this.#previous = print;
    if (repeated) fresh.length = 0;
    if (!rescan && received > 0) {
      this.#nothingNew = fresh.length === 0 ? this.#nothingNew + 1 : 0;
      if (this.#nothingNew >= NOTHING_NEW_PAGES) {
        stop ??= `pages ${page - NOTHING_NEW_PAGES + 1} to ${page} brought no record that was not already written`;
      }
    }
    return { fresh, stop };
  }

  /** A second pass starts: its page numbers start again from the first. */
  restart(): void {
    this.#lastEnvelopePage = undefined;
    this.#previous = undefined;
  }
}

/** The record's id as a key (numbers and strings apart), or undefined when it has none. */
export function idKey(record: ApiObject): string | undefined {
  const id = record['id'];
  if (typeof id === 'number' && Number.isFinite(id)) return `n${id}`;
  if (typeof id === 'string' && id !== '') return `s${id}`;
  return undefined;
}

/**
 * Order-sensitive digest of records, by id where they have one, else by
 * their JSON (FNV-1a: cheap and dependency-free).
 */
function fingerprint(records: readonly ApiObject[]): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (const r of records) {
    const text = idKey(r) ?? JSON.stringify(r) ?? '';
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    h1 = Math.imul(h1 ^ 0x1e, 0x01000193);
  }
  return `${records.length}:${(h1 >>> 0).toString(36)}:${(h2 >>> 0).toString(36)}`;
}
