/**
 * Resources: the three references an agent reads before composing a call,
 * and the export folder's files (what export_news wrote), read back as
 * text or, for xlsx, parquet and .gz, as base64.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { exportedFiles } from './export-folder.js';
import type { ToolBinding } from './tools.js';

export interface ResourceInfo {
  [key: string]: unknown;
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType: string;
  readonly size?: number;
}

export type ResourceContent =
  | { uri: string; mimeType: string; text: string }
  | { uri: string; mimeType: string; blob: string };

/** The reference texts, made when read (reference-docs.ts loads the query module and the columns). */
const docs = () => import('./reference-docs.js');

const DOCS: readonly (ResourceInfo & {
  readonly text: (tools: readonly ToolBinding[]) => Promise<string>;
})[] = [
  {
    uri: 'news://docs/query-language',
    name: 'query-language',
    title: 'The query language',
    description: 'grammar, limits and fields of the `query` argument',
    mimeType: 'text/markdown',
    text: async () => (await docs()).queryLanguageText(),
  },
  {
    uri: 'news://docs/fields',
    name: 'fields',
    title: 'Record fields',
    description: 'the dotted fields the `fields` argument picks',
    mimeType: 'text/markdown',
    text: async () => (await docs()).fieldsText(),
  },
  {
    uri: 'news://docs/parameters',
    name: 'parameters',
    title: 'Parameter reference',
    description: 'every parameter by API name, with its type and limits (for `filters`)',
    mimeType: 'text/markdown',
    text: async (tools) => (await docs()).parametersText(tools),
  },
];

/** Whether a URI is one of the reference texts (fixed while the server runs). */
export function isReference(uri: string): boolean {
  return DOCS.some((d) => d.uri === uri);
}

const EXPORTS = 'news://exports/';
/** Files larger than this are not read back through the protocol: they would flood a context. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

const MIME: Readonly<Record<string, string>> = {
  json: 'application/json',
  jsonl: 'application/jsonl',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  xml: 'application/xml',
  rss: 'application/rss+xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  parquet: 'application/vnd.apache.parquet',
  gz: 'application/gzip',
};
const TEXT = new Set(['json', 'jsonl', 'ndjson', 'csv', 'tsv', 'xml', 'rss', 'txt', 'md']);

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export async function listResources(exportDir: string): Promise<ResourceInfo[]> {
  const files = await exportedFiles(exportDir);
  return [
    ...DOCS.map(({ text: _text, ...info }) => info),
    ...files.map((f) => ({
      uri: `${EXPORTS}${encodeURI(f.name)}`,
      name: f.name,
      description: 'a file of the export folder',
      mimeType: MIME[extension(f.name)] ?? 'application/octet-stream',
      size: f.size,
    })),
  ];
}

export async function readResource(
  uri: string,
  exportDir: string,
  tools: readonly ToolBinding[],
): Promise<ResourceContent> {
  const doc = DOCS.find((d) => d.uri === uri);
  if (doc !== undefined) return { uri, mimeType: doc.mimeType, text: await doc.text(tools) };
  if (!uri.startsWith(EXPORTS)) throw new UsageError(`no resource ${uri}`);
  const name = decodeURI(uri.slice(EXPORTS.length));
  const path = await realpath(join(exportDir, name)).catch(() => undefined);
  // The same rule as export_news: nothing outside the folder, links included.
  if (
    path === undefined ||
    !path.startsWith(`${exportDir}${sep}`) ||
    name.split('/').includes('..')
  ) {
    throw new UsageError(`no file ${name} in the export folder`);
  }
  const info = await stat(path);
  if (!info.isFile()) throw new UsageError(`${name} is not a file`);
  if (info.size > MAX_READ_BYTES) {
    throw new UsageError(
      `${name} is ${info.size} bytes, more than the ${MAX_READ_BYTES} read here`,
    );
  }
  const ext = extension(name);
  const mimeType = MIME[ext] ?? 'application/octet-stream';
  const bytes = await readFile(path);
  return TEXT.has(ext)
    ? { uri, mimeType, text: bytes.toString('utf8') }
    : { uri, mimeType, blob: bytes.toString('base64') };
}
