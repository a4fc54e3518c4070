/** Format names and file extensions. Cheap on purpose: on the CLI's --help path. */
import type { FormatName } from './types.js';

export const FORMAT_NAMES: readonly FormatName[] = [
  'json',
  'jsonl',
  'ndjson',
  'csv',
  'tsv',
  'xml',
  'rss',
  'xlsx',
  'parquet',
  'table',
];

/**
 * The formats written a record at a time as records arrive, never rewritten
 * at the end: what `webhooks listen` writes (its CommandSpec.formats).
 */
export const STREAMING_FORMATS: readonly FormatName[] = ['jsonl', 'ndjson', 'csv', 'tsv'];

const BY_EXTENSION: Record<string, FormatName> = {
  json: 'json',
  jsonl: 'jsonl',
  ndjson: 'ndjson',
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  xml: 'xml',
  rss: 'rss',
  xlsx: 'xlsx',
  parquet: 'parquet',
  pq: 'parquet',
};

/** `x.csv.gz` → `csv`, `feed.rss` → `rss`; undefined when the extension says nothing. */
export function formatFromPath(path: string): FormatName | undefined {
  const name = path
    .toLowerCase()
    .replace(/^.*[\\/]/, '')
    .replace(/\.gz$/, '');
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return BY_EXTENSION[name.slice(dot + 1)];
}

export function isFormatName(s: string): s is FormatName {
  return (FORMAT_NAMES as readonly string[]).includes(s);
}

/** Formats that are not text: refused to a terminal unless `-o -` asks for it. */
export function isBinaryFormat(f: FormatName): boolean {
  return f === 'xlsx' || f === 'parquet';
}

/** Whether `path` asks for gzip compression. */
export function isGzipPath(path: string): boolean {
  return path.toLowerCase().endsWith('.gz');
}
