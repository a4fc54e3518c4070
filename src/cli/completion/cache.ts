/**
 * The completion cache: values that ordinary commands saw (names and ids from
 * `suggest`, entities and categories of search results, webhook ids), so Tab
 * can offer them without the network. One small JSON file under
 * `$XDG_CACHE_HOME/news/` (else `~/.cache/news/`); losing it loses nothing.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { newsCacheDir } from '../user-dirs.js';
import type { Choice } from './types.js';

/** Per key, the most recent first; older values fall off past this. */
const MAX_PER_KEY = 300;

type Env = Readonly<Record<string, string | undefined>>;

interface CacheFile {
  readonly version: 1;
  readonly values: Record<string, Choice[]>;
}

export function cachePath(env: Env): string {
  return join(newsCacheDir(env), 'completion.json');
}

function readCache(path: string): CacheFile {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<CacheFile>;
    if (parsed.version === 1 && typeof parsed.values === 'object' && parsed.values !== null)
      return { version: 1, values: parsed.values };
  } catch {
    // Missing or damaged: an empty cache; the next write replaces it.
  }
  return { version: 1, values: {} };
}

/** The cached values under one key (empty when there are none). */
export function cachedValues(env: Env, key: string): readonly Choice[] {
  const list = readCache(cachePath(env)).values[key];
  return Array.isArray(list)
    ? list.filter((c) => Array.isArray(c) && typeof c[0] === 'string')
    : [];
}

/**
 * Adds values under their keys, newest first, deduplicated. Best effort: a
 * read-only home or a race with another process never fails the command.
 */
export async function rememberValues(
  env: Env,
  entries: Readonly<Record<string, readonly Choice[]>>,
): Promise<void> {
  const keys = Object.keys(entries).filter((k) => (entries[k]?.length ?? 0) > 0);
  if (keys.length === 0 || env['NEWS_NO_COMPLETION_CACHE'] === '1') return;
  const path = cachePath(env);
  const cache = readCache(path);
  for (const key of keys) {
    const seen = new Set<string>();
    const merged: Choice[] = [];
    for (const choice of [...(entries[key] ?? []), ...(cache.values[key] ?? [])]) {
      const value = choice[0];
      if (typeof value !== 'string' || value === '' || seen.has(value)) continue;
      seen.add(value);
      merged.push([value, typeof choice[1] === 'string' ? choice[1] : '']);
      if (merged.length >= MAX_PER_KEY) break;
    }
    cache.values[key] = merged;
  }
  try {
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(temp, JSON.stringify(cache));
    await rename(temp, path);
  } catch {
    // The cache is a convenience; never a reason to fail.
  }
}

function push(out: Record<string, Choice[]>, key: string, choice: Choice): void {
  const list = out[key];
  if (list) list.push(choice);
  else out[key] = [choice];
}

type Rec = Readonly<Record<string, unknown>>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null;
const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

/** Entity types of the article schema → the `*.name` filter they fill. */
const NAME_KEYS: Readonly<Record<string, string>> = {
  person: 'person',
  organization: 'organization',
  location: 'location',
  brand: 'brand',
  'natural-disaster': 'disaster',
  disaster: 'disaster',
  disease: 'disease',
  event: 'event',
  sport: 'sport',
};

/**
 * What a page of records offers to completion: entity names and ids,
 * categories, topics and industries, source domains and author names. Records
 * of any shape are fine; what is not there is skipped.
 */
export function harvestRecords(records: readonly unknown[]): Record<string, Choice[]> {
  const out: Record<string, Choice[]> = {};
  const add = (key: string, value: string | undefined, description = '') => {
    if (value === undefined || value === '' || value.length > 120) return;
    push(out, key, [value, description]);
  };
  for (const record of records) {
    if (!isRec(record)) continue;
    for (const entity of Array.isArray(record['entities']) ? record['entities'] : []) {
      if (!isRec(entity)) continue;
      const name = str(entity['name']);
      const type = str(entity['type']) ?? '';
      const kind = NAME_KEYS[type];
      if (kind) add(`name.${kind}`, name, type);
      add('entity.id', str(entity['id']), name);
    }
    for (const [field, key] of [
      ['categories', 'category.id'],
      ['topics', 'topic.id'],
      ['industries', 'industry.id'],
    ] as const) {
      for (const item of Array.isArray(record[field]) ? record[field] : []) {
        if (isRec(item)) add(key, str(item['id']), str(item['name']) ?? '');
      }
    }
    const source = record['source'];
    if (isRec(source)) add('source.domain', str(source['domain']));
    const author = record['author'];
    if (isRec(author)) add('author.name', str(author['name']));
  }
  return out;
}

/** The suggest endpoint's items under the key their ids fill (names too, for entities). */
export function harvestSuggestions(
  kind: string,
  items: readonly unknown[],
): Record<string, Choice[]> {
  const idKey: Readonly<Record<string, string>> = {
    entities: 'entity.id',
    categories: 'category.id',
    topics: 'topic.id',
    industries: 'industry.id',
  };
  const out: Record<string, Choice[]> = {};
  const key = idKey[kind];
  if (key === undefined) return out;
  for (const item of items) {
    if (!isRec(item)) continue;
    const id = str(item['id']);
    const name = str(item['name']) ?? '';
    if (id !== undefined) push(out, key, [id, name]);
    if (kind === 'entities') {
      const nameKey = NAME_KEYS[str(item['type']) ?? ''];
      if (nameKey && name !== '') push(out, `name.${nameKey}`, [name, str(item['type']) ?? '']);
    }
  }
  return out;
}

/** Collects what the pages of one run offer (the first 500 records), saved once at the end. */
export class CompletionHarvest {
  private readonly found: Record<string, Choice[]> = {};
  private records = 0;

  add(records: readonly unknown[]): void {
    if (this.records >= 500) return;
    const page = records.slice(0, 500 - this.records);
    this.records += page.length;
    for (const [key, choices] of Object.entries(harvestRecords(page))) {
      const list = this.found[key];
      if (list) list.push(...choices);
      else this.found[key] = choices;
    }
  }

  save(env: Env): Promise<void> {
    return rememberValues(env, this.found);
  }
}
