/**
 * Build step (`npm run build`, and `npm run fixtures` after regenerating):
 * writes the committed fixtures as the store file the mock loads
 * (store-file.ts), under dist/fixtures/. Never committed: it is derived from
 * fixtures/data/ and rebuilt by every build.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { COMMITTED_SEED, REFERENCE_INSTANT, fixturesDataDir } from '../fixtures/committed.js';
import { catalogueLists, parseFiles } from '../fixtures/data-files.js';
import { buildCatalogue } from './catalogue.js';
import { COMMITTED_FILES, committedSource, encodeSet, storeFilePath } from './load.js';
import { writeStoreFile } from './store-file.js';

const dir = fixturesDataDir();
const { catalogue, articles } = parseFiles((name) => readFileSync(join(dir, name)));
const set = encodeSet(articles, catalogueLists(catalogue));
const path = storeFilePath();
mkdirSync(dirname(path), { recursive: true });
writeStoreFile(path, {
  seed: COMMITTED_SEED,
  reference: new Date(REFERENCE_INSTANT).toISOString(),
  source: committedSource(dir, COMMITTED_FILES),
  table: set.table,
  json: set.json,
  catalogue: buildCatalogue(set.table, set.lists),
});
console.log(`wrote ${set.table.rows} articles to dist/fixtures/store.bin`);
