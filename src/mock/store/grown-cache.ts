/**
 * `--articles N` kept between runs. Growing a set to 100,000 articles takes
 * seconds of CPU (the generator on worker threads, extras.ts); the grown
 * table does not depend on `--now` (its dates are kept relative to the
 * reference instant, as in the store file), so `news mock serve` keeps it in
 * its cache directory ($XDG_CACHE_HOME/news/mock/) after making it once, and
 * the next start with the same seed and size reads it as the build's store
 * file is read: columns as views, the articles' JSON by offset.
 *
 * Same format as the store file (store-file.ts). The file's name holds the
 * seed, the size and a fingerprint of what made it (the generator's and the
 * table's code, the committed data files' sizes, the format): a file made
 * by other code is never read, so the set is always the generator's, field
 * for field. Losing the directory loses nothing; the newest few files are
 * kept.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMITTED_SEED, REFERENCE_INSTANT, fixturesDataDir } from '../fixtures/committed.js';
import type { Catalogue, FixtureStore } from './fixture-store.js';
import { STORE_FORMAT, encodeStoreFile } from './store-file.js';

/** Grown sets kept in the directory: the newest by modification time. */
const KEEP_FILES = 3;
const PREFIX = 'grown-';

/**
 * The modules whose code decides a grown set's rows: the generator and its
 * vocabulary (fixtures/), the table and its encoding (store/), the tokenizer
 * of titles (search/text) and the parameter values the vocabulary reads.
 */
function codeFiles(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const within = (dir: string) =>
    readdirSync(dir)
      .filter((n) => n.endsWith(ext))
      .sort()
      .map((n) => join(dir, n));
  return [
    ...within(join(here, '..', 'fixtures')),
    ...within(here),
    join(here, '..', 'search', `text${ext}`),
    join(here, '..', '..', 'params', `search-values${ext}`),
  ];
}

/** Where the grown set of this seed and size is kept (and what its header must say). */
export function grownFile(
  dir: string,
  seed: number,
  articles: number,
): { path: string; source: Record<string, number> } {
  const hash = createHash('sha256');
  hash.update(`format ${STORE_FORMAT}\n`);
  for (const file of codeFiles()) hash.update(readFileSync(file));
  if (seed === COMMITTED_SEED) {
    // The committed set's base comes from these files.
    const data = fixturesDataDir();
    for (const name of readdirSync(data).sort())
      hash.update(`${name} ${statSync(join(data, name)).size}\n`);
  }
  const fingerprint = hash.digest('hex').slice(0, 16);
  return {
    path: join(dir, `${PREFIX}${seed}-${articles}-${fingerprint}.bin`),
    source: { articles },
  };
}

/** The store's catalogue as a plain object (the store exposes it through getters). */
function catalogueOf(store: FixtureStore): Catalogue {
  return {
    sources: store.sources,
    people: store.people,
    companies: store.companies,
    journalists: store.journalists,
    suggest: store.suggest,
    eventTypes: store.eventTypes,
    eventCategories: store.eventCategories,
    languages: store.languages,
    countries: store.countries,
    journalistAuthorIds: store.journalistAuthorIds,
    duplicateOf: store.duplicateOf,
  };
}

/** Writes in progress (grownSaved waits for them). */
const saving = new Set<Promise<void>>();

/** Resolves when every grown set being written has been (tests; a server's close). */
export async function grownSaved(): Promise<void> {
  await Promise.all([...saving]);
}

/**
 * Writes a freshly grown store (nothing posted or published yet) to `path`,
 * in the background: its table with the dates moved back to the reference
 * instant, its base articles' JSON, its catalogue. Everything but the JSON
 * (which never changes) is encoded now, before the store can change; the
 * file is written to a temporary name and renamed, so a reader never sees
 * half of it; then older grown sets are removed. Best effort: a cache that
 * cannot be written is not an error.
 */
export function saveGrown(
  store: FixtureStore,
  file: { path: string; source: Record<string, number> },
): void {
  const shift = store.now.getTime() - REFERENCE_INSTANT;
  const unshifted = (column: { data: Float64Array; length: number }): Float64Array => {
    const out = new Float64Array(column.length);
    for (let i = 0; i < out.length; i++) out[i] = (column.data[i] as number) - shift;
    return out;
  };
  const { table, json } = store;
  const section = json.fileSection;
  const parts = encodeStoreFile({
    seed: store.seed,
    reference: new Date(REFERENCE_INSTANT).toISOString(),
    source: file.source,
    table,
    // Copies: the store's own keep growing while the file is written.
    columns: new Map([
      ['published', unshifted(table.published)],
      ['created', unshifted(table.created)],
    ]),
    json: section ?? json.fileBytes(),
    catalogue: catalogueOf(store),
  });
  const write = async (): Promise<void> => {
    const tmp = `${file.path}.${process.pid}.tmp`;
    try {
      await mkdir(dirname(file.path), { recursive: true });
      await writeFile(
        tmp,
        (function* () {
          yield* parts;
          // The store file's JSON, read when its turn comes.
          if (section !== undefined) yield json.fileBytes();
        })(),
      );
      await rename(tmp, file.path);
      await prune(dirname(file.path));
    } catch {
      await rm(tmp, { force: true });
    }
  };
  const done = write();
  saving.add(done);
  void done.finally(() => saving.delete(done));
}

/** Keeps the newest KEEP_FILES grown sets (and no temporary file of a run that died). */
async function prune(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => n.startsWith(PREFIX));
  const files = await Promise.all(
    names.map(async (n) => ({
      path: join(dir, n),
      mtime: (await stat(join(dir, n))).mtimeMs,
      tmp: n.endsWith('.tmp'),
    })),
  );
  const kept = files.filter((f) => !f.tmp).sort((a, b) => b.mtime - a.mtime);
  const hour = 3_600_000;
  const old = [
    ...kept.slice(KEEP_FILES),
    ...files.filter((f) => f.tmp && Date.now() - f.mtime > hour),
  ];
  await Promise.all(old.map((f) => rm(f.path, { force: true })));
}
