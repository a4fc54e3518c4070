/**
 * `--partition-by`: hive-style directories (`published_date=2026-11-20/`)
 * under the `-o` directory, one new `part-<run>.<ext>` file per partition and
 * run, so appending runs never rewrite a file an earlier run wrote, and
 * DuckDB, Spark or pandas read the tree as one table with the partition
 * column restored from the directory names.
 */
import type { ApiRecord } from '../../output/types.js';
import type { PartitionKey } from './run-options.js';

/** Hive's name for a missing value: readers turn it back into NULL. */
export const HIVE_NULL = '__HIVE_DEFAULT_PARTITION__';

export const PARTITION_COLUMN: Readonly<Record<PartitionKey, string>> = {
  day: 'published_date',
  month: 'published_month',
  'language.code': 'language_code',
  'source.country.code': 'source_country_code',
};

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The partition value of one record, before escaping. */
export function partitionValue(key: PartitionKey, record: ApiRecord): string | undefined {
  const r = record as Record<string, unknown>;
  switch (key) {
    case 'day':
    case 'month': {
      const published = text(r['published_at']);
      const ms = published === undefined ? Number.NaN : Date.parse(published);
      if (Number.isNaN(ms)) return undefined;
      const iso = new Date(ms).toISOString();
      return key === 'day' ? iso.slice(0, 10) : iso.slice(0, 7);
    }
    case 'language.code': {
      const language = r['language'];
      if (typeof language === 'object' && language !== null)
        return text((language as Record<string, unknown>)['code'])?.toLowerCase();
      return text(language)?.toLowerCase();
    }
    case 'source.country.code': {
      const source = r['source'] as Record<string, unknown> | undefined;
      const location = source?.['location'] as Record<string, unknown> | undefined;
      const country = source?.['country'] as Record<string, unknown> | undefined;
      return text(location?.['country_code'] ?? country?.['code'])?.toLowerCase();
    }
  }
}

/** Hive escapes path-unsafe characters as %XX; values here are codes and dates, so this is rare. */
function escapeHive(value: string): string {
  return value.replace(
    /[\u0000-\u001f"#%'*/:=?\\\u007f{}[\]^]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** `published_date=2026-11-20` */
export function partitionDir(key: PartitionKey, record: ApiRecord): string {
  const value = partitionValue(key, record);
  return `${PARTITION_COLUMN[key]}=${value === undefined ? HIVE_NULL : escapeHive(value)}`;
}

/** Splits one page into its partitions, keeping the records' order within each. */
export function splitPage(key: PartitionKey, page: readonly ApiRecord[]): Map<string, ApiRecord[]> {
  const parts = new Map<string, ApiRecord[]>();
  for (const record of page) {
    const dir = partitionDir(key, record);
    let list = parts.get(dir);
    if (list === undefined) {
      list = [];
      parts.set(dir, list);
    }
    list.push(record);
  }
  return parts;
}

/** A run's file name, unique per run and sorting in run order: `part-20261120T150405Z-1a2b3c`. */
export function runPartName(now: Date, random: string): string {
  return `part-${now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '')}-${random}`;
}
