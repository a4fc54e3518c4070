/**
 * What the pages of a run brought so far: the ids yielded, and a fingerprint
 * of each page whose records have no id. The server is not trusted to page
 * well: a record already yielded (same `id`) is never yielded again, and a
 * page that brings nothing new, or whose `page` number does not advance,
 * ends the run with a reason instead of asking forever.
 *
 * Ids are a few bytes each: a million records cost tens of MB at most, a
 * price worth not writing a record twice.
 */
export type ApiObject = Record<string, unknown>;
export type Envelope = Record<string, unknown>;

export class PageMemory {
  readonly #ids = new Set<string>();
  readonly #pages = new Set<string>();
  #lastEnvelopePage: number | undefined;

  /**
   * The records not seen before, and why paging must stop after this page
   * (undefined: it may go on). A second pass over the same list (`rescan`)
   * expects pages it has seen: only a page number that does not advance
   * stops it.
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
    const echoed = envelope['page'];
    if (typeof echoed === 'number' && Number.isFinite(echoed)) {
      if (this.#lastEnvelopePage !== undefined && echoed <= this.#lastEnvelopePage) {
        stop = `page ${page}: the server answered page ${echoed} again; stopped paging (every record was written once)`;
      }
      this.#lastEnvelopePage = echoed;
    }
    if (anonymous.length > 0) {
      const print = fingerprint(anonymous);
      if (this.#pages.has(print) && fresh.length === anonymous.length) {
        if (rescan) return { fresh: [], stop };
        stop ??= `page ${page} repeats an earlier page; stopped paging (every record was written once)`;
        return { fresh: [], stop };
      }
      this.#pages.add(print);
    }
    if (!rescan && received > 0 && fresh.length === 0 && stop === undefined) {
      stop = `page ${page} brought no record that was not already written; stopped paging`;
    }
    return { fresh, stop };
  }

  /** A second pass starts: its page numbers start again from the first. */
  restart(): void {
    this.#lastEnvelopePage = undefined;
  }
}

/** The record's id as a key (numbers and strings apart), or undefined when it has none. */
export function idKey(record: ApiObject): string | undefined {
  const id = record['id'];
  if (typeof id === 'number' && Number.isFinite(id)) return `n${id}`;
  if (typeof id === 'string' && id !== '') return `s${id}`;
  return undefined;
}

/** Order-sensitive digest of records without ids (FNV-1a over their JSON: cheap and dependency-free). */
function fingerprint(records: readonly ApiObject[]): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (const r of records) {
    const text = JSON.stringify(r) ?? '';
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    h1 = Math.imul(h1 ^ 0x1e, 0x01000193);
  }
  return `${records.length}:${(h1 >>> 0).toString(36)}:${(h2 >>> 0).toString(36)}`;
}
