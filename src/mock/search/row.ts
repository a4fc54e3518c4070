/**
 * Reading one article's values from the table (src/mock/store/table.ts) by
 * row: what the field table, sorting, facets and the endpoints share, so each
 * derived value (an image's size, the geo point, a category's slug) is
 * computed one way.
 */
import type { ArticleSource, LocationMentioned } from '../fixtures/article-types.js';
import { type ArticleTable, FLAG, POLARITIES } from '../store/table.js';
import type { Polarity } from './types.js';

/** `medtop:04000000` in filters is category id 4000000 in articles. */
export function categorySlug(id: number): string {
  return `medtop:${String(id).padStart(8, '0')}`;
}

export const sourceOf = (t: ArticleTable, row: number): ArticleSource =>
  t.dict.sources.values[t.source.data[row] as number] as ArticleSource;

export const authorOf = (t: ArticleTable, row: number): { id: number | null; name: string } =>
  t.dict.authors.values[t.author.data[row] as number] as { id: number | null; name: string };

export const languageOf = (t: ArticleTable, row: number): string =>
  t.dict.languages.values[t.language.data[row] as number] as string;

export const flag = (t: ArticleTable, row: number, bit: number): boolean =>
  ((t.flags.data[row] as number) & bit) !== 0;

export const isDuplicate = (t: ArticleTable, row: number): boolean => flag(t, row, FLAG.duplicate);
export const isFree = (t: ArticleTable, row: number): boolean => flag(t, row, FLAG.free);
export const isBreaking = (t: ArticleTable, row: number): boolean => flag(t, row, FLAG.breaking);
export const isClickbait = (t: ArticleTable, row: number): boolean => flag(t, row, FLAG.clickbait);

export const polarity = (code: number): Polarity => POLARITIES[code] as Polarity;

export const imageCount = (t: ArticleTable, row: number): number =>
  t.images.to(row) - t.images.from(row);

/** The largest or smallest image width or height of the row; undefined without images. */
export function imageExtreme(
  t: ArticleTable,
  row: number,
  side: 'width' | 'height',
  want: 'max' | 'min',
): number | undefined {
  const values = side === 'width' ? t.imageWidth.data : t.imageHeight.data;
  let best: number | undefined;
  for (let i = t.images.from(row); i < t.images.to(row); i++) {
    const v = values[i] as number;
    if (best === undefined || (want === 'max' ? v > best : v < best)) best = v;
  }
  return best;
}

/** Whether some image of the row passes `test(width, height)`. */
export function someImage(
  t: ArticleTable,
  row: number,
  test: (width: number, height: number) => boolean,
): boolean {
  for (let i = t.images.from(row); i < t.images.to(row); i++) {
    if (test(t.imageWidth.data[i] as number, t.imageHeight.data[i] as number)) return true;
  }
  return false;
}

/** The row's first image's size (the main one), or undefined. */
export function mainImage(t: ArticleTable, row: number): [number, number] | undefined {
  const i = t.images.from(row);
  return i < t.images.to(row)
    ? [t.imageWidth.data[i] as number, t.imageHeight.data[i] as number]
    : undefined;
}

/** A mentioned place with coordinates, and the location entity of the same name in the article. */
export interface Place {
  readonly name: string;
  readonly country: string;
  readonly lat: number;
  readonly lng: number;
  readonly entityId: number | null;
}

export function placeAt(t: ArticleTable, i: number): Place {
  const l = t.dict.places.values[t.placeCode.data[i] as number] as LocationMentioned;
  const entity = t.placeEntity.data[i] as number;
  return {
    name: l.name,
    country: l.country,
    lat: l.lat as number,
    lng: l.lng as number,
    entityId: Number.isNaN(entity) ? null : entity,
  };
}

/** The article's geo point: its first mentioned place with coordinates (fixture convention). */
export function geoPoint(t: ArticleTable, row: number): Place | undefined {
  const i = t.places.from(row);
  return i < t.places.to(row) ? placeAt(t, i) : undefined;
}

/** Entity ids mentioned by the row (one per mention). */
export function entityIds(t: ArticleTable, row: number): number[] {
  const out: number[] = [];
  for (let i = t.entities.from(row); i < t.entities.to(row); i++) {
    out.push(t.dict.entities.values[t.entityCode.data[i] as number]!.id);
  }
  return out;
}

/** Values of a coded list of the row through its dictionary. */
export function listValues<T, R>(
  start: { from(row: number): number; to(row: number): number },
  codes: { data: Int32Array },
  dict: { values: readonly T[] },
  row: number,
  map: (value: T) => R,
): R[] {
  const out: R[] = [];
  for (let i = start.from(row); i < start.to(row); i++) {
    out.push(map(dict.values[codes.data[i] as number] as T));
  }
  return out;
}

export const categoryIds = (t: ArticleTable, row: number): string[] =>
  listValues(t.categories, t.categoryCode, t.dict.categories, row, (c) => categorySlug(c.id));
export const topicIds = (t: ArticleTable, row: number): string[] =>
  listValues(t.topics, t.topicCode, t.dict.topics, row, (x) => x.id.toLowerCase());
export const industryIds = (t: ArticleTable, row: number): string[] =>
  listValues(t.industries, t.industryCode, t.dict.industries, row, (x) => String(x.id));
export const eventTypes = (t: ArticleTable, row: number): string[] =>
  listValues(t.events, t.eventCode, t.dict.events, row, (e) => e.type);
export const eventCategories = (t: ArticleTable, row: number): string[] =>
  listValues(t.events, t.eventCode, t.dict.events, row, (e) => e.category);
