/** A record as the API returns it (article, person, webhook, …). */
export type ApiRecord = Record<string, unknown>;

export type FormatName =
  | 'json'
  | 'jsonl'
  | 'ndjson'
  | 'csv'
  | 'tsv'
  | 'xml'
  | 'rss'
  | 'xlsx'
  | 'parquet'
  | 'table';

/** What kind of records a list holds: picks default columns for tabular formats. */
export type RecordKind = 'article' | 'person' | 'company' | 'journalist' | 'generic';
