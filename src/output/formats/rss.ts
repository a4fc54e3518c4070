/**
 * RSS 2.0: a channel (title = the export's title: the command line) with
 * one <item> per record. Items are built one at a time by XMLBuilder and
 * streamed. The item shape is fixed by RSS, so `--fields` does not change it.
 */
import { encoderSpec } from '../format-writer.js';
import type { EncoderSpec, FormatWriter, WriterContext } from '../format-writer.js';
import type { PageEncoder } from '../text-writer.js';
import { textWriter } from '../text-writer.js';
import type { ApiRecord } from '../types.js';
import { stripXmlIllegal, truncateWithMarker } from '../text.js';

/** Length of the plain-text <description> excerpt, in UTF-16 units. */
export const EXCERPT_LENGTH = 500;

function str(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return stripXmlIllegal(v);
  if (typeof v === 'number') return String(v);
  return undefined;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** RFC 822 date (RFC 1123 form, four-digit year, GMT) or undefined. */
export function rfc822(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toUTCString();
}

type Item = Record<string, unknown>;

/**
 * An RSS link must be an absolute URL: a relative one (people's `links.self`,
 * `/v1/people/42`) is resolved against the API's base URL, and left out when
 * there is none (the in-process mock) or the result is not http(s).
 */
export function absoluteLink(link: string, base: string | undefined): string | undefined {
  let url: URL;
  try {
    url = URL.canParse(link) ? new URL(link) : new URL(link, base);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
}

export function rssItem(r: ApiRecord, linkBase?: string): Item {
  const item: Item = {};
  const title = str(r['title']) ?? str(r['name']) ?? str(r['id']);
  if (title !== undefined) item['title'] = title;
  const found = str(r['href']) ?? str(obj(r['links'])?.['self']);
  const link = found === undefined ? undefined : absoluteLink(found, linkBase);
  if (link !== undefined) item['link'] = link;
  const text = str(r['description']) ?? str(r['body']);
  if (text !== undefined) item['description'] = truncateWithMarker(text, EXCERPT_LENGTH, '…');
  const author = str(obj(r['author'])?.['name']);
  if (author !== undefined) item['dc:creator'] = author;
  const categories: Item[] = [];
  if (Array.isArray(r['categories'])) {
    for (const c of r['categories']) {
      const name = str(obj(c)?.['name']);
      if (name === undefined) continue;
      const taxonomy = str(obj(c)?.['taxonomy']);
      categories.push(
        taxonomy === undefined ? { '#text': name } : { '#text': name, '@_domain': taxonomy },
      );
    }
  }
  if (categories.length > 0) item['category'] = categories;
  const id = str(r['id']);
  if (id !== undefined) item['guid'] = { '#text': id, '@_isPermaLink': 'false' };
  const date = rfc822(r['published_at']);
  if (date !== undefined) item['pubDate'] = date;
  const source = obj(r['source']);
  const domain = str(source?.['domain']);
  if (domain !== undefined) {
    const url = str(source?.['home_page_url']) ?? `https://${domain}/`;
    item['source'] = { '#text': domain, '@_url': url };
  }
  return item;
}

function escapeText(s: string): string {
  return stripXmlIllegal(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export async function rssEncoder(spec: Pick<EncoderSpec, 'linkBase'>): Promise<PageEncoder> {
  const { XMLBuilder } = await import('fast-xml-parser');
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    suppressBooleanAttributes: false,
    format: true,
    indentBy: '  ',
  });
  return (records) => {
    let page = '';
    for (const r of records) page += builder.build({ item: rssItem(r, spec.linkBase) });
    return page;
  };
}

export async function createRssWriter(ctx: WriterContext): Promise<FormatWriter> {
  // The names were checked (a typo is still an error); the item's shape is RSS's.
  if (ctx.projected) ctx.warn('--fields does nothing for -f rss: an RSS item has a fixed shape');
  const title = escapeText(ctx.title ?? 'news export');
  const link = escapeText(ctx.link ?? 'https://apitube.io/');
  return textWriter(ctx, encoderSpec(ctx, 'rss'), await rssEncoder(ctx), {
    header:
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n<channel>\n' +
      `<title>${title}</title>\n<link>${link}</link>\n<description>${title}</description>\n` +
      '<generator>news CLI</generator>\n',
    footer: () => '</channel>\n</rss>\n',
  });
}
