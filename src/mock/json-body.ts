/**
 * JSON for answers, with the articles of a page serialised (to UTF-8 bytes)
 * once and reused.
 * Turning a 10-article page into ~60 KB of JSON is most of the server's own
 * cost per search, and the same stored articles come back page after page.
 * Only objects that are the store's own records are cached (test-mode
 * previews and highlighted copies are new objects and always serialised),
 * and the cache is bounded so 100 000 articles do not double the memory.
 */

const LIST_KEYS = ['results', 'recent_articles'] as const;
const MARKER = '\u0000mock-json-list\u0000';
const MARKER_JSON = JSON.stringify(MARKER);

const COMMA = Buffer.from(',');

export class JsonBodyWriter {
  /** UTF-8 bytes by stored record: the answer is assembled from bytes, never re-encoded. */
  private readonly cache = new Map<object, Buffer>();

  constructor(
    /** True when `item` is a stored record that never changes once indexed. */
    private readonly isStored: (item: object) => boolean,
    private readonly maxEntries = 2000,
  ) {}

  /** The body as JSON text, exactly as `JSON.stringify` writes it. */
  stringify(body: unknown): string {
    return this.encode(body).toString('utf8');
  }

  /** The body as UTF-8 JSON bytes, ready to send. */
  encode(body: unknown): Buffer {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return Buffer.from(JSON.stringify(body), 'utf8');
    const record = body as Record<string, unknown>;
    const key = LIST_KEYS.find((k) => Array.isArray(record[k]));
    const list = key === undefined ? undefined : (record[key] as unknown[]);
    if (key === undefined || list === undefined || list.length === 0)
      return Buffer.from(JSON.stringify(body), 'utf8');
    const text = JSON.stringify({ ...record, [key]: MARKER });
    const at = text.indexOf(MARKER_JSON);
    const parts: Buffer[] = [Buffer.from(`${text.slice(0, at)}[`, 'utf8')];
    for (let i = 0; i < list.length; i++) {
      if (i > 0) parts.push(COMMA);
      parts.push(this.item(list[i]));
    }
    parts.push(Buffer.from(`]${text.slice(at + MARKER_JSON.length)}`, 'utf8'));
    return Buffer.concat(parts);
  }

  private item(item: unknown): Buffer {
    if (typeof item !== 'object' || item === null || !this.isStored(item))
      return Buffer.from(JSON.stringify(item) ?? 'null', 'utf8');
    let bytes = this.cache.get(item);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(item), 'utf8');
      if (this.cache.size >= this.maxEntries) {
        // Oldest first out: cheap, and a page's articles were cached together.
        const oldest = this.cache.keys().next();
        if (!oldest.done) this.cache.delete(oldest.value);
      }
      this.cache.set(item, bytes);
    }
    return bytes;
  }
}
