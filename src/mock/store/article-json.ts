/**
 * Each row's article as the API returns it: UTF-8 JSON bytes, made only for
 * the records a page shows and copied into the answer as they are (never
 * parsed and re-encoded on the way). Where the bytes come from:
 * - the store file (the committed fixtures): read by offset; published_at
 *   there is relative to the reference instant, so its 24 characters are
 *   overwritten with the row's shifted time;
 * - memory: posted articles, and stores built from objects (tests);
 * - the seeded generator: `--articles` extras and `--publish-rate` articles
 *   are made again from the seed when a page needs them (the generator is
 *   deterministic), so they cost no memory beyond their columns.
 * A bounded cache keeps the bytes of recently shown rows.
 */
import { readSync } from 'node:fs';
import type { Article } from '../fixtures/article-types.js';
import { type ArticleTable, BODY } from './table.js';

/** Makes a generated row's article again: extras by index (ref), published ones by id and time. */
export type Regenerate = (ref: number, id: number, publishedMs: number) => Article;

/** Where the store file's article bytes are: in memory, or read from the file on demand. */
export type FileBytes = { buffer: Buffer } | { fd: number; offset: number; length: number };

const ISO_LENGTH = 24;
/**
 * What the cache of shown articles may hold. Making a generated article
 * again costs ~60 µs (the generator, JSON.stringify, UTF-8), copying its
 * bytes well under one: 64 MB keep ~14,000 articles of ~4.6 KB, the pages of
 * a few hundred different searches over 100,000 articles (an LRU smaller than
 * the pages a load cycles through keeps none of them).
 */
const CACHE_BYTES = 64 * 1024 * 1024;

export class ArticleJson {
  private readonly memory: Buffer[] = [];
  private readonly cache = new Map<number, Buffer>();
  private cached = 0;
  private generation = -1;
  private readonly generators = new Map<number, Regenerate>();

  constructor(
    private readonly table: ArticleTable,
    private file: FileBytes | undefined,
  ) {}

  /** How rows of a generated kind are made again (set by load.ts for extras, by the publisher). */
  generate(kind: number, regenerate: Regenerate): void {
    this.generators.set(kind, regenerate);
  }

  /** Keeps `bytes` for a new row; returns the reference to store in the row. */
  keep(bytes: Buffer): number {
    this.memory.push(bytes);
    return this.memory.length - 1;
  }

  /** The row's article as JSON bytes (shared: do not modify). */
  bytes(row: number): Buffer {
    const t = this.table;
    if (this.generation !== t.generation) {
      this.cache.clear();
      this.cached = 0;
      this.generation = t.generation;
    }
    const kind = t.bodyKind.data[row] as number;
    const ref = t.bodyRef.data[row] as number;
    if (kind === BODY.memory) return this.memory[ref] as Buffer;
    const cached = this.cache.get(row);
    if (cached !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.cache.delete(row);
      this.cache.set(row, cached);
      return cached;
    }
    const bytes = kind === BODY.file ? this.fromFile(row, ref) : this.generated(row, kind, ref);
    this.cached += bytes.length;
    for (const [old, oldBytes] of this.cache) {
      if (this.cached <= CACHE_BYTES) break;
      this.cache.delete(old);
      this.cached -= oldBytes.length;
    }
    this.cache.set(row, bytes);
    return bytes;
  }

  /** The row's article as an object (a fresh copy, free to change). */
  article(row: number): Article {
    return JSON.parse(this.bytes(row).toString('utf8')) as Article;
  }

  /**
   * Reads the store file's articles from this buffer (its whole article
   * section, read once by a long-running server) instead of by offset.
   */
  useFileBytes(buffer: Buffer): void {
    this.file = { buffer };
  }

  /**
   * Reads the whole article section with `read` when the first article of
   * the file is asked for (a server's start and its counts need none).
   */
  useFileBytesLater(read: () => Buffer): void {
    this.whole = read;
  }
  private whole: (() => Buffer) | undefined;

  /** The store file's whole article section (what BODY.file rows point into); empty without one. */
  fileBytes(): Buffer {
    const file = this.file;
    if (file === undefined) return Buffer.alloc(0);
    return 'buffer' in file ? file.buffer : readRange(file.fd, file.offset, file.length);
  }

  /** The store file this reads by offset, if any. */
  get fd(): number | undefined {
    return this.fileSection?.fd;
  }

  /** Where the store file's article section is, when it is read by offset. */
  get fileSection(): { fd: number; offset: number; length: number } | undefined {
    return this.file !== undefined && 'fd' in this.file ? this.file : undefined;
  }

  private fromFile(row: number, ref: number): Buffer {
    const t = this.table;
    const length = t.bodyLength.data[row] as number;
    if (this.whole !== undefined) {
      this.file = { buffer: this.whole() };
      this.whole = undefined;
    }
    const file = this.file;
    if (file === undefined) throw new Error(`row ${row}: the store file is not open`);
    let bytes: Buffer;
    if ('buffer' in file) {
      bytes = Buffer.allocUnsafe(length);
      file.buffer.copy(bytes, 0, ref, ref + length);
    } else bytes = readRange(file.fd, file.offset + ref, length);
    const at = t.bodyDate.data[row] as number;
    const iso = new Date(t.published.data[row] as number).toISOString();
    if (at >= 0 && iso.length === ISO_LENGTH) {
      bytes.write(iso, at, 'latin1');
      return bytes;
    }
    // A date outside years 0–9999 does not fit in place: the slow way.
    const article = JSON.parse(bytes.toString('utf8')) as Article;
    article.published_at = iso;
    return Buffer.from(JSON.stringify(article), 'utf8');
  }

  private generated(row: number, kind: number, ref: number): Buffer {
    const t = this.table;
    const regenerate = this.generators.get(kind);
    if (regenerate === undefined) throw new Error(`row ${row}: no generator for its article`);
    const published = t.published.data[row] as number;
    const article = regenerate(ref, t.id.data[row] as number, published);
    article.published_at = new Date(published).toISOString();
    return Buffer.from(JSON.stringify(article), 'utf8');
  }
}

/** `length` bytes of a file from `position`. */
export function readRange(fd: number, position: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, out, done, length - done, position + done);
    if (n === 0) throw new Error('the store file ended early');
    done += n;
  }
  return out;
}

export { BODY };

/**
 * An article in an answer as its JSON bytes: the answer's writer copies them
 * in as they are (json-body.ts). Serialised any other way (JSON.stringify,
 * a test reading the body), it is the article.
 */
export class RawArticle {
  constructor(
    readonly id: number,
    readonly bytes: Buffer,
  ) {}

  /** The article as an object (a fresh copy). */
  value(): Article {
    return JSON.parse(this.bytes.toString('utf8')) as Article;
  }

  toJSON(): Article {
    return this.value();
  }
}
