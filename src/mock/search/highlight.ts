export interface HighlightOptions {
  /** Lower-case words to mark. */
  readonly words: ReadonlySet<string>;
  readonly fields: readonly string[];
  readonly fragsize: number;
  readonly snippets: number;
  readonly pre: string;
  readonly post: string;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

interface Span {
  readonly start: number;
  readonly end: number;
}

function matchesIn(text: string, words: ReadonlySet<string>): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(WORD)) {
    if (words.has(m[0].toLowerCase())) spans.push({ start: m.index, end: m.index + m[0].length });
  }
  return spans;
}

function tag(
  text: string,
  from: number,
  to: number,
  spans: readonly Span[],
  o: HighlightOptions,
): string {
  let out = '';
  let at = from;
  for (const s of spans) {
    if (s.start < from || s.end > to) continue;
    out += text.slice(at, s.start) + o.pre + text.slice(s.start, s.end) + o.post;
    at = s.end;
  }
  return out + text.slice(at, to);
}

/**
 * Fragments of about `fragsize` characters around the matches, at most
 * `snippets` of them, each match wrapped in the tags. Fragments start a quarter
 * of a fragment before their first match and break at spaces, like Solr's
 * default fragmenter.
 */
export function fragments(text: string, o: HighlightOptions): string[] {
  const spans = matchesIn(text, o.words);
  if (spans.length === 0) return [];
  if (text.length <= o.fragsize) return [tag(text, 0, text.length, spans, o)];
  const out: string[] = [];
  let covered = 0;
  for (const s of spans) {
    if (out.length >= o.snippets) break;
    if (s.start < covered) continue;
    let from = Math.max(covered, s.start - Math.floor(o.fragsize / 4));
    if (from > 0) {
      const space = text.indexOf(' ', from);
      if (space !== -1 && space < s.start) from = space + 1;
    }
    let to = Math.min(text.length, from + o.fragsize);
    if (to < text.length) {
      const space = text.lastIndexOf(' ', to);
      if (space > s.end) to = space;
    }
    to = Math.max(to, s.end);
    out.push(tag(text, from, to, spans, o).trim());
    covered = to;
  }
  return out;
}

/** `highlighting` of the answer: article id → field → fragments (fields without a match are left out). */
export function highlight(
  records: readonly { id: number; title: string; description: string; body: string }[],
  o: HighlightOptions,
): Record<string, Record<string, string[]>> {
  const result: Record<string, Record<string, string[]>> = {};
  for (const r of records) {
    const entry: Record<string, string[]> = {};
    for (const field of o.fields) {
      const text =
        field === 'title'
          ? r.title
          : field === 'description'
            ? r.description
            : field === 'body'
              ? r.body
              : '';
      const f = fragments(text, o);
      if (f.length > 0) entry[field] = f;
    }
    result[String(r.id)] = entry;
  }
  return result;
}

/**
 * Words a request searches for, to highlight: title filters, bare and title terms
 * of `query`, and the extra `search` terms. Field values of other predicates are
 * not text the reader looks for, so they are skipped.
 */
export function queryHighlightWords(query: string): string[] {
  const words: string[] = [];
  const text = query.replace(/\{\{[\s\S]*?\}\}/g, ' ');
  const TERM = /(?:([A-Za-z_][\w.]*):)?("[^"]*"|\([^)]*\)|[^\s()"]+)/g;
  for (const m of text.matchAll(TERM)) {
    const field = m[1];
    const value = m[2] ?? '';
    if (field !== undefined && !field.startsWith('title')) continue;
    if (field === undefined && /^(AND|OR|NOT|TO)$/.test(value)) continue;
    for (const w of value.toLowerCase().match(WORD) ?? []) {
      if (!['and', 'or', 'not'].includes(w) || value.startsWith('"')) words.push(w);
    }
  }
  return words;
}
