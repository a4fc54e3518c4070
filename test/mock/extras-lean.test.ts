/**
 * An `--articles` extra is indexed from makeArticle's lean form, whose title
 * and description words come as template pieces coded once each
 * (`TableArticle.wordPieces`): the table it makes must be the table the full
 * article makes, column for column, word for word, in every language.
 */
import { describe, expect, it } from 'vitest';
import { fill, wordPieces } from '../../src/mock/fixtures/article-parts.js';
import { ExtraArticles } from '../../src/mock/fixtures/generate.js';
import { buildWorld } from '../../src/mock/fixtures/world.js';
import { tokenize } from '../../src/mock/search/text.js';
import { namedColumns } from '../../src/mock/store/table-layout.js';
import { ArticleTable, BODY } from '../../src/mock/store/table.js';

describe('wordPieces', () => {
  const slots = { A: 'Acme', B: 'Globex', K: 'rates', N: '12' };

  it('gives the pieces when every slot has a separator on each side', () => {
    const pieces: string[] = [];
    expect(wordPieces('{A} meets {B} on {K}, {N} days in.', slots, pieces)).toBe(true);
    expect(pieces).toEqual(['Acme', ' meets ', 'Globex', ' on ', 'rates', ', ', '12', ' days in.']);
    expect(pieces.flatMap(tokenize)).toEqual(
      tokenize(fill('{A} meets {B} on {K}, {N} days in.', slots)),
    );
  });

  it.each([
    ["a slot glued to a word by an apostrophe ({A}'s)", "{A}'s profits rise"],
    ['a slot inside text written without spaces', '据{A}称'],
    ['two slots side by side', '{A}{B} merger'],
    ['a slot followed by a hyphen', '{A}-{B} deal'],
  ])('refuses %s, adding nothing', (_name, template) => {
    const pieces: string[] = [];
    expect(wordPieces(template, slots, pieces)).toBe(false);
    expect(pieces).toEqual([]);
  });
});

describe('an extra indexed lean', () => {
  it('makes the same table as the full article, with most texts coded by pieces', () => {
    const extras = new ExtraArticles(buildWorld(7), 7);
    const lean = new ArticleTable();
    const full = new ArticleTable();
    const languages = new Map<string, { pieces: number; texts: number }>();
    for (let i = 0; i < 4_000; i++) {
      const article = extras.make(i);
      const published = Date.parse(article.published_at);
      const indexed = extras.indexed(i, '');
      full.append(article, { kind: BODY.extra, ref: i }, published, published);
      lean.append(indexed, { kind: BODY.extra, ref: i }, published, published);
      const seen = languages.get(article.language) ?? { pieces: 0, texts: 0 };
      if (indexed.wordPieces === undefined) seen.texts++;
      else {
        seen.pieces++;
        const [title, description] = indexed.wordPieces;
        expect(title.flatMap(tokenize)).toEqual(tokenize(article.title));
        expect(description.flatMap(tokenize)).toEqual(tokenize(article.description));
      }
      languages.set(article.language, seen);
    }
    const fullColumns = new Map(namedColumns(full));
    for (const [name, column] of namedColumns(lean)) {
      const other = fullColumns.get(name)!;
      expect(column.length, name).toBe(other.length);
      expect(Array.from(column.data.subarray(0, column.length)), name).toEqual(
        Array.from(other.data.subarray(0, other.length)),
      );
    }
    for (const [name, dict] of Object.entries(lean.dict))
      expect(dict.values, name).toEqual(full.dict[name as keyof typeof full.dict].values);
    expect(lean.titles).toEqual(full.titles);
    // Both ways were taken: pieces for most, the whole texts where a slot touches a word.
    const all = [...languages.values()];
    expect(all.reduce((n, l) => n + l.pieces, 0)).toBeGreaterThan(3_000);
    expect(all.reduce((n, l) => n + l.texts, 0)).toBeGreaterThan(0);
    expect(languages.size).toBeGreaterThan(5);
  });
});
