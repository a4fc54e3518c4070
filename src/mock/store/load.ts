/**
 * loadFixtures: the store for a seed, `now` and size. The committed seed
 * reads the store file the build wrote (store-file.ts): a few hundred KB of
 * columns and dictionaries, the articles' JSON left in the file. Without that
 * file (or when it is stale) the committed files are encoded in memory the
 * same way, which takes a few hundred milliseconds. Any other seed generates
 * its base set in memory. `articles` above the base count adds generated
 * extras in columns; their JSON is made again from the seed when shown.
 *
 * Only this path's modules load for a `--mock` command: the generator is
 * imported when a set is generated or grown.
 */
import { statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Article } from '../fixtures/article-types.js';
import type { WorldLists } from '../fixtures/data-files.js';
import {
  BASE_ARTICLES,
  COMMITTED_SEED,
  REFERENCE_INSTANT,
  fixturesDataDir,
} from '../fixtures/committed.js';
import { ArticleJson, type FileBytes, readRange } from './article-json.js';
import { addExtras, makesExtras } from './extras.js';
import { buildCatalogue } from './catalogue.js';
import { type Catalogue, FixtureStore } from './fixture-store.js';
import { catalogueOf, readStoreFile, type StoreFileContents } from './store-file.js';
import { namedColumns } from './table-layout.js';
import { ArticleTable, BODY } from './table.js';

export { BASE_ARTICLES, COMMITTED_SEED };

export interface LoadFixturesOptions {
  /** Default: the committed seed (the store built from fixtures/data/); any other seed generates in memory. */
  seed?: number;
  /**
   * Total article count wanted: above the base set's count (2,400) the set grows
   * with the same generator; smaller values leave the base set as it is.
   */
  articles?: number;
  /** Default: the current time. */
  now?: Date;
  /**
   * Where a grown set (`articles` above the base) is kept between runs
   * (grown-cache.ts): read from there when it was made before, written there
   * when it is made. Default: none, made every time.
   */
  cacheDir?: string;
  /** Stops growing the set (`articles`): loading rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Where the build writes the committed set's store file: <repo>/dist/fixtures/. */
export function storeFilePath(): string {
  return join(
    dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    '..',
    'dist',
    'fixtures',
    'store.bin',
  );
}

/** What the store file must have been built from: the committed files and their sizes. */
export function committedSource(dataDir: string, names: readonly string[]): Record<string, number> {
  return Object.fromEntries(names.map((n) => [n, statSync(join(dataDir, n)).size]));
}

/** The committed data files (as write-fixtures.ts writes them). */
export const COMMITTED_FILES = [
  'articles-00.json.gz',
  'articles-01.json.gz',
  'articles-02.json.gz',
  'articles-03.json.gz',
  'articles-04.json.gz',
  'articles-05.json.gz',
  'catalogue.json.gz',
];

/** One read of the store file per process: stores share its columns (copied on first append). */
let opened: { contents: StoreFileContents } | undefined;
/** Grown sets read (grown-cache.ts), by path: one read per process, like the store file. */
const grownFiles = new Map<string, StoreFileContents>();
/** Article sections read into memory by `preloadArticles`, by file: shared by every store of the process. */
const preloaded = new Map<number, Buffer>();

export interface EncodedSet {
  table: ArticleTable;
  /** Every row's JSON, concatenated (bodyRef and bodyLength point into it). */
  json: Buffer;
  /** What the catalogue is derived from (needed again when the set grows). */
  lists: WorldLists;
}

/** A base set as the loader has it: its rows, where their JSON is, its catalogue. */
interface BaseSet {
  table: ArticleTable;
  file: FileBytes;
  catalogue: Catalogue | (() => Catalogue);
  lists: () => Promise<WorldLists>;
}

/**
 * A set of articles (dates relative to REFERENCE_INSTANT, newest first) as a
 * table and its JSON: what the build writes and what the fallback holds.
 */
export function encodeSet(articles: readonly Article[], lists: WorldLists): EncodedSet {
  const table = new ArticleTable();
  const parts: Buffer[] = [];
  let offset = 0;
  for (const article of articles) {
    const bytes = Buffer.from(JSON.stringify(article), 'utf8');
    const at = bytes.indexOf('"published_at":"');
    const date = at < 0 ? -1 : at + '"published_at":"'.length;
    table.append(article, { kind: BODY.file, ref: offset, length: bytes.length, date });
    parts.push(bytes);
    offset += bytes.length;
  }
  table.insert(Array.from(articles, (_, i) => i));
  return { table, json: Buffer.concat(parts), lists };
}

/** Moves every date of the table by `shift` ms (the reference instant becomes `now`). */
function shiftDates(table: ArticleTable, shift: number): void {
  for (const column of [table.published, table.created]) {
    const out = new Float64Array(column.length);
    for (let i = 0; i < out.length; i++) out[i] = (column.data[i] as number) + shift;
    column.data = out;
  }
}

function restore(contents: StoreFileContents): ArticleTable {
  const { header, columns } = contents;
  const table = new ArticleTable();
  for (const [name, column] of namedColumns(table)) {
    const data = columns.get(name);
    if (data === undefined) throw new Error(`store file: no column ${name}`);
    column.data = data;
    column.length = data.length;
  }
  for (const [name, dict] of Object.entries(table.dict)) {
    for (const v of header.dicts[name] ?? []) (dict.values as unknown[]).push(v);
  }
  table.restoreTitles(contents.titles);
  const order = header.order === undefined ? undefined : columns.get(header.order);
  table.index.restore(order ?? Int32Array.from({ length: header.rows }, (_, i) => i));
  return table;
}

/** The committed set: from the store file, or encoded in memory when there is none. */
async function committed(): Promise<BaseSet> {
  const dir = fixturesDataDir();
  const lists = async (): Promise<WorldLists> => {
    const { CATALOGUE_FILE, catalogueLists, decompress } = await import(
      '../fixtures/data-files.js'
    );
    const { readFileSync } = await import('node:fs');
    return catalogueLists(JSON.parse(decompress(readFileSync(join(dir, CATALOGUE_FILE)))));
  };
  opened ??= (() => {
    const contents = readStoreFile(storeFilePath(), committedSource(dir, COMMITTED_FILES));
    return contents === undefined ? undefined : { contents };
  })();
  if (opened !== undefined) {
    const { contents } = opened;
    return {
      table: restore(contents),
      catalogue: () => catalogueOf(contents.catalogue()),
      lists,
      file: fileOf(contents),
    };
  }
  const { parseFiles, catalogueLists } = await import('../fixtures/data-files.js');
  const { readFileSync } = await import('node:fs');
  const { catalogue, articles } = parseFiles((name) => readFileSync(join(dir, name)));
  return inMemory(encodeSet(articles, catalogueLists(catalogue)));
}

/** A store file's article section: in memory when a server read it already, else by offset. */
function fileOf(contents: StoreFileContents): FileBytes {
  const { fd, header } = contents;
  const buffer = preloaded.get(fd);
  return buffer ? { buffer } : { fd, offset: header.json.offset, length: header.json.length };
}

function inMemory(set: EncodedSet): BaseSet {
  return {
    table: set.table,
    file: { buffer: set.json },
    catalogue: buildCatalogue(set.table, set.lists),
    lists: async () => set.lists,
  };
}

export async function loadFixtures(options: LoadFixturesOptions = {}): Promise<FixtureStore> {
  const seed = options.seed ?? COMMITTED_SEED;
  const now = options.now ?? new Date();
  const wanted = options.articles ?? 0;
  const cache =
    options.cacheDir !== undefined && wanted > BASE_ARTICLES
      ? await import('./grown-cache.js').then((m) => ({
          save: m.saveGrown,
          file: m.grownFile(options.cacheDir as string, seed, wanted),
        }))
      : undefined;
  if (cache !== undefined) {
    const kept = await loadGrown(cache.file, seed, now);
    if (kept !== undefined) return kept;
  }
  let set: BaseSet;
  if (seed === COMMITTED_SEED) set = await committed();
  else {
    const { generateBase } = await import('../fixtures/generate.js');
    const { generatedLists } = await import('../fixtures/data-files.js');
    const generated = generateBase(seed);
    set = inMemory(encodeSet(generated.articles, generatedLists(generated)));
  }
  const { table } = set;
  shiftDates(table, now.getTime() - REFERENCE_INSTANT);
  const json = new ArticleJson(table, set.file);
  let catalogue = set.catalogue;
  const grow = wanted > table.rows;
  if (grow) {
    await addExtras(table, json, seed, wanted - table.rows, now, options.signal);
    // More articles mention more people and carry more bylines.
    catalogue = buildCatalogue(table, await set.lists());
  }
  const store = new FixtureStore(now, seed, table, json, catalogue);
  if (grow && cache !== undefined) cache.save(store, cache.file);
  return store;
}

/** A grown set made before (grown-cache.ts), or undefined when there is none for this code. */
async function loadGrown(
  file: { path: string; source: Record<string, number> },
  seed: number,
  now: Date,
): Promise<FixtureStore | undefined> {
  let contents = grownFiles.get(file.path);
  if (contents === undefined) {
    contents = readStoreFile(file.path, file.source);
    if (contents === undefined || contents.header.seed !== seed) return undefined;
    grownFiles.set(file.path, contents);
    // Used now: the directory keeps the newest files.
    utimesSync(file.path, new Date(), new Date());
  }
  const table = restore(contents);
  shiftDates(table, now.getTime() - REFERENCE_INSTANT);
  const json = new ArticleJson(table, fileOf(contents));
  await makesExtras(json, seed);
  const read = contents;
  return new FixtureStore(now, seed, table, json, () => catalogueOf(read.catalogue()));
}

/**
 * A long-running server reads the store file's articles' JSON into memory
 * once, with the first article it shows (a one-shot command reads the few
 * it shows by offset). Shared by every store of the process.
 */
export function preloadArticles(store: FixtureStore): void {
  const section = store.json.fileSection;
  if (section === undefined) return;
  store.json.useFileBytesLater(() => {
    let buffer = preloaded.get(section.fd);
    if (buffer === undefined) {
      buffer = readRange(section.fd, section.offset, section.length);
      preloaded.set(section.fd, buffer);
    }
    return buffer;
  });
}

/**
 * A store of these articles (dates as they are, kept as sent) and this
 * catalogue: for tests and embedding, where every expectation is read off
 * articles written by hand.
 */
export function createStore(input: {
  now: Date;
  seed: number;
  articles: readonly Article[];
  catalogue: Catalogue;
}): FixtureStore {
  const table = new ArticleTable();
  const store = new FixtureStore(
    input.now,
    input.seed,
    table,
    new ArticleJson(table, undefined),
    input.catalogue,
  );
  store.add(input.articles);
  return store;
}
