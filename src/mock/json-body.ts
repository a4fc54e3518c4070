/**
 * JSON answers with the articles of a page copied in as their stored UTF-8
 * bytes (RawArticle, src/mock/store/article-json.ts), never parsed and
 * re-encoded: turning a 10-article page into ~60 KB of JSON was most of the
 * server's own cost per search. The text is exactly what `JSON.stringify`
 * would write for the same answer.
 */
import { RawArticle } from './store/article-json.js';

const LIST_KEYS = ['results', 'recent_articles'] as const;
const MARKER = '\u0000mock-json-list\u0000';
const MARKER_JSON = JSON.stringify(MARKER);

const COMMA = Buffer.from(',');

/** The body as UTF-8 JSON bytes, ready to send. */
export function encodeJson(body: unknown): Buffer {
  const parts = encodeJsonParts(body);
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
}

/**
 * The same bytes as `encodeJson`, in pieces: the articles' own buffers
 * between the envelope's, for a socket to send as they are (one writev),
 * without first copying a page of articles into one buffer.
 */
export function encodeJsonParts(body: unknown): Buffer[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [Buffer.from(JSON.stringify(body), 'utf8')];
  const record = body as Record<string, unknown>;
  const key = LIST_KEYS.find((k) => Array.isArray(record[k]));
  const list = key === undefined ? undefined : (record[key] as unknown[]);
  if (key === undefined || list === undefined || !list.some((i) => i instanceof RawArticle))
    return [Buffer.from(JSON.stringify(body), 'utf8')];
  const text = JSON.stringify({ ...record, [key]: MARKER });
  const at = text.indexOf(MARKER_JSON);
  const parts: Buffer[] = [Buffer.from(`${text.slice(0, at)}[`, 'utf8')];
  for (let i = 0; i < list.length; i++) {
    if (i > 0) parts.push(COMMA);
    const item = list[i];
    parts.push(
      item instanceof RawArticle ? item.bytes : Buffer.from(JSON.stringify(item) ?? 'null', 'utf8'),
    );
  }
  parts.push(Buffer.from(`]${text.slice(at + MARKER_JSON.length)}`, 'utf8'));
  return parts;
}
