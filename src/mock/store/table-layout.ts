/**
 * The article table's columns by name, and what works on all of them at
 * once: the store file (store-file.ts), merging a worker's share of the
 * `--articles` extras, and compaction (dropping the rows a mock left running
 * took out of its index).
 */
import type { Dict, Grow } from './grow.js';
import type { ArticleTable } from './table.js';

type AnyColumn = Grow<Float64Array | Int32Array | Uint8Array>;

/** The one-value-per-row columns, by name. */
export const SCALAR_COLUMNS = [
  'id',
  'published',
  'created',
  'language',
  'source',
  'author',
  'story',
  'flags',
  'sentimentOverall',
  'sentimentTitle',
  'sentimentBody',
  'polarityOverall',
  'polarityTitle',
  'polarityBody',
  'fkGrade',
  'ease',
  'ari',
  'readingAge',
  'difficulty',
  'audience',
  'readTime',
  'sentencesCount',
  'paragraphsCount',
  'charactersCount',
  'wordsCount',
  'sharesFacebook',
  'sharesTwitter',
  'sharesReddit',
  'videoCount',
  'bodyKind',
  'bodyRef',
  'bodyLength',
  'bodyDate',
] as const satisfies readonly (keyof ArticleTable)[];

/** Each list column with its value columns. */
export const LIST_COLUMNS = [
  ['categories', ['categoryCode']],
  ['topics', ['topicCode']],
  ['industries', ['industryCode']],
  ['events', ['eventCode']],
  ['entities', ['entityCode', 'entityFrequency', 'entityScore', 'entityPolarity']],
  ['places', ['placeCode', 'placeEntity']],
  ['images', ['imageWidth', 'imageHeight']],
  ['titleWords', ['titleWord']],
  ['descriptionWords', ['descriptionWord']],
] as const satisfies readonly (readonly [keyof ArticleTable, readonly (keyof ArticleTable)[]])[];

/** Columns holding dictionary codes, with their dictionary. */
export const CODED_COLUMNS: Readonly<Record<string, keyof ArticleTable['dict']>> = {
  language: 'languages',
  source: 'sources',
  author: 'authors',
  difficulty: 'difficulties',
  audience: 'audiences',
  categoryCode: 'categories',
  topicCode: 'topics',
  industryCode: 'industries',
  eventCode: 'events',
  entityCode: 'entities',
  placeCode: 'places',
  titleWord: 'words',
  descriptionWord: 'words',
};

/** Every column of a table by name: the one-value ones, then each list's start and values. */
export function namedColumns(table: ArticleTable): [string, AnyColumn][] {
  const out: [string, AnyColumn][] = SCALAR_COLUMNS.map((name) => [name, table[name]]);
  for (const [list, values] of LIST_COLUMNS) {
    out.push([`${list}.start`, table[list].start]);
    for (const name of values) out.push([name, table[name]]);
  }
  return out;
}

/**
 * Room for `rows` rows without another copy of any column: the one-value
 * columns exactly, the lists at a quarter more values a row than so far.
 * Reserved memory nobody writes to is not resident, so reserving for the
 * most a mock will hold costs nothing until it is used, and spares the
 * copies (and the freed arrays the process keeps) of growing step by step.
 */
export function reserveRows(table: ArticleTable, rows: number): void {
  for (const name of SCALAR_COLUMNS) table[name].reserve(rows);
  const now = Math.max(1, table.rows);
  for (const [list, values] of LIST_COLUMNS) {
    table[list].start.reserve(rows + 1);
    for (const name of values) {
      const perRow = table[name].length / now;
      table[name].reserve(Math.ceil(rows * perRow * 1.25) + 16);
    }
  }
}

/**
 * Appends every row of `part` (a table built elsewhere, with dictionaries of
 * its own: a worker's share of the `--articles` extras), its codes
 * translated to `table`'s. Returns the new rows, in `part`'s row order;
 * index them with `table.insert`.
 */
export function appendTable(table: ArticleTable, part: ArticleTable): number[] {
  const first = table.rows;
  const remap = new Map<string, Int32Array>();
  for (const [name, dict] of Object.entries(part.dict)) {
    const mine = table.dict[name as keyof ArticleTable['dict']] as Dict<unknown>;
    remap.set(
      name,
      Int32Array.from(dict.values as unknown[], (v) => mine.code(v)),
    );
  }
  const copy = (name: string, to: AnyColumn, from: AnyColumn): void => {
    const n = from.length;
    to.reserve(to.length + n);
    const dict = CODED_COLUMNS[name];
    if (dict === undefined) to.data.set(from.data.subarray(0, n), to.length);
    else translate(to.data as Int32Array, to.length, from.data as Int32Array, n, remap.get(dict)!);
    to.length += n;
  };
  for (const name of SCALAR_COLUMNS) copy(name, table[name], part[name]);
  for (const t of part.titles) table.titles.push(t);
  for (const [list, values] of LIST_COLUMNS) {
    const to = table[list].start;
    const from = part[list].start;
    const n = from.length - 1;
    to.reserve(to.length + n);
    // The part's offsets past the values already here.
    const base = to.data[to.length - 1] as number;
    const out = to.data;
    const offsets = from.data;
    const at = to.length - 1;
    for (let r = 1; r <= n; r++) out[at + r] = base + (offsets[r] as number);
    to.length += n;
    for (const name of values) copy(name, table[name], part[name]);
  }
  return Array.from({ length: part.rows }, (_, i) => first + i);
}

/** out[at + i] = codes[from[i]] for i < n: a part's codes in the table's dictionary. */
function translate(
  out: Int32Array,
  at: number,
  from: Int32Array,
  n: number,
  codes: Int32Array,
): void {
  for (let i = 0; i < n; i++) out[at + i] = codes[from[i] as number] as number;
}

/**
 * Removes the rows no longer indexed, in place (no column is reallocated: a
 * mock left running compacts again and again), keeping the others in their
 * row order; the index is renumbered and `generation` moves on.
 */
export function compactTable(table: ArticleTable): void {
  const live = (row: number): boolean => table.index.isLive(row);
  const rows = table.rows;
  const map = new Int32Array(rows).fill(-1);
  let kept = 0;
  for (let r = 0; r < rows; r++) if (live(r)) map[r] = kept++;
  for (const name of SCALAR_COLUMNS) {
    const column = table[name];
    for (let r = 0; r < rows; r++) {
      const to = map[r] as number;
      if (to >= 0) column.data[to] = column.data[r] as number;
    }
    column.length = kept;
  }
  let w = 0;
  for (let r = 0; r < rows; r++) if (live(r)) table.titles[w++] = table.titles[r] as string;
  table.titles.length = kept;
  for (const [list, values] of LIST_COLUMNS) {
    const start = table[list].start.data;
    let row = 0;
    let at = 0;
    for (let r = 0; r < rows; r++) {
      // start[r + 1] is read before anything at or past it is written (row ≤ r).
      const from = start[r] as number;
      const to = start[r + 1] as number;
      if (!live(r)) continue;
      for (const name of values) table[name].data.copyWithin(at, from, to);
      start[row++] = at;
      at += to - from;
    }
    start[row] = at;
    table[list].start.length = kept + 1;
    for (const name of values) table[name].length = at;
  }
  table.index.renumber(map, kept);
  table.generation++;
}
