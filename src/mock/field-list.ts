/**
 * `fl` (the OpenAPI's "comma-separated list of fields to include in the
 * response"): each article of `results` keeps only the named fields. Dotted
 * names reach into objects (`source.domain` → `{source: {domain}}`) and
 * through arrays (`entities.name` → `{entities: [{name}, …]}`).
 *
 * As for every other parameter, an invalid value is silently not applied:
 * names no result has are ignored, and an `fl` naming none at all leaves the
 * articles whole. The rest of the answer (paging, facets, highlighting keyed
 * by id) is unchanged.
 */
import { isPlainObject } from './http-io.js';
import { RawArticle } from './store/article-json.js';

type Item = Record<string, unknown>;

/** The dotted names of an `fl` value (string or array), shortest first, or undefined. */
export function parseFieldList(value: unknown): string[][] | undefined {
  const raw = Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : '';
  const paths = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^[A-Za-z_][\w]*(\.[\w]+)*$/.test(name))
    .map((name) => name.split('.'));
  return paths.length > 0 ? paths.sort((a, b) => a.length - b.length) : undefined;
}

/** `body` with its `results` narrowed to `fl`'s fields; `body` itself when `fl` does not apply. */
export function selectFields(body: Item, fl: unknown): Item {
  const raw = body['results'];
  const parsed = parseFieldList(fl);
  if (parsed === undefined || !Array.isArray(raw)) return body;
  // Stored articles come as their JSON bytes: only the page's few are read into objects here.
  const results: unknown[] = raw.map((item) => (item instanceof RawArticle ? item.value() : item));
  const items = results.filter(isPlainObject);
  const known = parsed.filter((path) => items.some((item) => (path[0] as string) in item));
  if (known.length === 0) return body;
  return {
    ...body,
    results: results.map((item) => (isPlainObject(item) ? project(item, known) : item)),
  };
}

function project(item: Item, paths: readonly string[][]): Item {
  const out: Item = {};
  for (const path of paths) copyPath(out, item, path, 0);
  return out;
}

/** Copies `from`'s value at `path[at…]` into `into`, building the objects and arrays on the way. */
function copyPath(into: Item, from: Item, path: readonly string[], at: number): void {
  const key = path[at] as string;
  if (!(key in from)) return;
  const value = from[key];
  if (at === path.length - 1) {
    into[key] = value;
    return;
  }
  // A shorter name already copied the whole value.
  if (into[key] === value) return;
  if (Array.isArray(value)) {
    const have = Array.isArray(into[key]) ? (into[key] as unknown[]) : [];
    into[key] = value.map((element: unknown, i) => {
      if (!isPlainObject(element)) return element;
      const target = isPlainObject(have[i]) ? have[i] : {};
      copyPath(target, element, path, at + 1);
      return target;
    });
    return;
  }
  if (isPlainObject(value)) {
    const target = isPlainObject(into[key]) ? into[key] : {};
    copyPath(target, value, path, at + 1);
    into[key] = target;
  }
}
