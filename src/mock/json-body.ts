/**
 * JSON for answers, with the articles of a page serialised once and reused.
 * Turning a 10-article page into ~60 KB of JSON is most of the server's own
 * cost per search, and the same stored articles come back page after page.
 * Only objects that are the store's own records are cached (test-mode
 * previews and highlighted copies are new objects and always serialised),
 * and the cache is bounded so 100 000 articles do not double the memory.
 */

const LIST_KEYS = ['results', 'recent_articles'] as const;
const MARKER = '\u0000mock-json-list\u0000';
const MARKER_JSON = JSON.stringify(MARKER);

export class JsonBodyWriter {
  private readonly cache = new Map<object, string>();

  constructor(
    /** True when `item` is a stored record that never changes once indexed. */
    private readonly isStored: (item: object) => boolean,
    private readonly maxEntries = 2000,
  ) {}

  stringify(body: unknown): string {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return JSON.stringify(body);
    const record = body as Record<string, unknown>;
    const key = LIST_KEYS.find((k) => Array.isArray(record[k]));
    const list = key === undefined ? undefined : (record[key] as unknown[]);
    if (key === undefined || list === undefined || list.length === 0) return JSON.stringify(body);
    const items = list.map((item) => this.item(item));
    const text = JSON.stringify({ ...record, [key]: MARKER });
    const at = text.indexOf(MARKER_JSON);
    return `${text.slice(0, at)}[${items.join(',')}]${text.slice(at + MARKER_JSON.length)}`;
  }

  private item(item: unknown): string {
    if (typeof item !== 'object' || item === null || !this.isStored(item))
      return JSON.stringify(item);
    let text = this.cache.get(item);
    if (text === undefined) {
      text = JSON.stringify(item);
      if (this.cache.size >= this.maxEntries) {
        // Oldest first out: cheap, and a page's articles were cached together.
        const oldest = this.cache.keys().next();
        if (!oldest.done) this.cache.delete(oldest.value);
      }
      this.cache.set(item, text);
    }
    return text;
  }
}
