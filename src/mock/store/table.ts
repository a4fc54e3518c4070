/**
 * The mock's articles as columns: one typed array per field the engine
 * filters, sorts or counts on, indexed by row; repeated sub-objects (sources,
 * categories, topics, entities, places, authors) and strings (languages,
 * words) dictionary-coded; lists (an article's categories, entities, images,
 * title words) as a start offset per row into flat value columns. What the
 * engine never reads (bodies, summaries, links) is only in the article's JSON,
 * kept beside the table (article-json.ts) and read for the records a page shows.
 *
 * Rows are appended, never changed. The index (row-order.ts) lists the live
 * rows newest first (published_at, then id, descending): what every scan
 * walks. Dropping rows (the cap on published articles) takes them out of the
 * index; `compactTable` (table-layout.ts) later removes them in place.
 */
import type {
  Article,
  ArticleSource,
  LocationMentioned,
  Polarity,
  TableArticle,
} from '../fixtures/article-types.js';
import { Dict, type Grow, f64, i32, objects, strings, u8 } from './grow.js';
import { tokenize } from '../search/text.js';
import { RowOrder } from './row-order.js';

export const POLARITIES: readonly Polarity[] = ['positive', 'negative', 'neutral'];

/** Bits of the `flags` column. */
export const FLAG = { clickbait: 1, duplicate: 2, free: 4, breaking: 8 } as const;

/** Where a row's JSON comes from (article-json.ts). */
export const BODY = {
  /** Bytes in the store file, with published_at relative to the reference instant. */
  file: 0,
  /** Kept in memory as sent (posted articles, stores built from objects). */
  memory: 1,
  /** Regenerated from the seed: an `--articles` extra (ref = its index). */
  extra: 2,
  /** Regenerated from the seed: a `--publish-rate` article (ref unused: id and time suffice). */
  published: 3,
} as const;

/** An entity as the dictionary keeps it; frequency and sentiment are per mention (row). */
export interface EntityRef {
  id: number;
  name: string;
  type: string;
  links: Article['entities'][number]['links'];
  metadata: Article['entities'][number]['metadata'];
}

/** The schema allows '' (unknown): read from the score then. */
function polarityOf(value: string, score: number): Polarity {
  if (value === 'positive' || value === 'negative' || value === 'neutral') return value;
  return score > 0.1 ? 'positive' : score < -0.1 ? 'negative' : 'neutral';
}
const polarityCode = (value: string, score: number): number =>
  POLARITIES.indexOf(polarityOf(value, score));

/** A list column: row r's values are values[start[r] .. start[r + 1]). */
export class ListColumn {
  constructor(readonly start = i32(Int32Array.of(0))) {}
  from(row: number): number {
    return this.start.data[row] as number;
  }
  to(row: number): number {
    return this.start.data[row + 1] as number;
  }
}

export class ArticleTable {
  // One value per row.
  readonly id = f64();
  readonly published = f64();
  /** When the mock indexed it: posted articles at posting time, others when published. */
  readonly created = f64();
  readonly language = i32();
  readonly source = i32();
  readonly author = i32();
  readonly story = f64();
  readonly flags = u8();
  readonly sentimentOverall = f64();
  readonly sentimentTitle = f64();
  readonly sentimentBody = f64();
  readonly polarityOverall = u8();
  readonly polarityTitle = u8();
  readonly polarityBody = u8();
  readonly fkGrade = f64();
  readonly ease = f64();
  readonly ari = f64();
  readonly readingAge = f64();
  readonly difficulty = i32();
  readonly audience = i32();
  readonly readTime = f64();
  readonly sentencesCount = f64();
  readonly paragraphsCount = f64();
  readonly charactersCount = f64();
  readonly wordsCount = f64();
  readonly sharesFacebook = f64();
  readonly sharesTwitter = f64();
  readonly sharesReddit = f64();
  readonly videoCount = i32();
  readonly bodyKind = u8();
  readonly bodyRef = f64();
  readonly bodyLength = i32();
  /** Byte offset of published_at's value in the row's file JSON, or -1. */
  readonly bodyDate = i32();
  private titleList: string[] = [];
  /** Titles still in the store file's text: read when first needed (a count never does). */
  private pendingTitles: (() => string[]) | undefined;

  // Lists.
  readonly categories = new ListColumn();
  readonly categoryCode = i32();
  readonly topics = new ListColumn();
  readonly topicCode = i32();
  readonly industries = new ListColumn();
  readonly industryCode = i32();
  readonly events = new ListColumn();
  readonly eventCode = i32();
  readonly entities = new ListColumn();
  readonly entityCode = i32();
  readonly entityFrequency = f64();
  readonly entityScore = f64();
  readonly entityPolarity = u8();
  /** Mentioned places with coordinates; the first is the article's geo point. */
  readonly places = new ListColumn();
  readonly placeCode = i32();
  /** The location entity of the same name in the article, or NaN. */
  readonly placeEntity = f64();
  readonly images = new ListColumn();
  readonly imageWidth = f64();
  readonly imageHeight = f64();
  readonly titleWords = new ListColumn();
  readonly titleWord = i32();
  readonly descriptionWords = new ListColumn();
  readonly descriptionWord = i32();

  // Dictionaries.
  readonly dict = {
    languages: strings(),
    sources: objects<ArticleSource>(),
    // Small objects new in every article: keyed by their fields rather than their JSON.
    authors: new Dict<Article['author']>((a) => `${a.id}\u0000${a.name}`),
    categories: objects<Article['categories'][number]>(),
    topics: objects<Article['topics'][number]>(),
    industries: objects<Article['industries'][number]>(),
    events: new Dict<Article['events'][number]>((e) => `${e.type}\u0000${e.category}`),
    entities: objects<EntityRef>(),
    places: new Dict<LocationMentioned>(
      (l) => `${l.name}\u0000${l.country}\u0000${l.lat}\u0000${l.lng}\u0000${l.type}`,
    ),
    difficulties: strings(),
    audiences: strings(),
    /** Lower-case words of titles and descriptions. */
    words: strings(),
  };

  /** The live rows, newest first. */
  readonly index = new RowOrder();
  /** Bumped when rows are renumbered (compaction): anything keyed by row must be rebuilt. */
  generation = 0;

  /** The live rows, newest first (a view: valid until the index changes). */
  get order(): Int32Array {
    return this.index.view;
  }

  get rows(): number {
    return this.id.length;
  }

  /** Each row's title (title_starts_with, title_ends_with, title_pattern read them). */
  get titles(): string[] {
    if (this.pendingTitles !== undefined) {
      const read = this.pendingTitles;
      this.pendingTitles = undefined;
      for (const t of read()) this.titleList.push(t);
    }
    return this.titleList;
  }

  /** The titles of the rows restored from a store file, read on first use. */
  restoreTitles(read: () => string[]): void {
    this.pendingTitles = read;
  }

  /**
   * Appends one article; returns its row. Call `insert` with the new rows to
   * index them. `publishedMs` spares parsing published_at when the caller has it.
   */
  append(
    a: TableArticle,
    body: { kind: number; ref: number; length?: number; date?: number },
    createdMs?: number,
    publishedMs?: number,
  ): number {
    const row = this.rows;
    const published = publishedMs ?? Date.parse(a.published_at);
    this.id.push(a.id);
    this.published.push(published);
    this.created.push(createdMs ?? published);
    this.language.push(this.dict.languages.code(a.language.toLowerCase()));
    this.source.push(this.dict.sources.code(a.source));
    // The generator shares one byline, event and place object between its
    // articles: coded by identity. Others' are new in every article: by key.
    const shared = body.kind === BODY.extra || body.kind === BODY.published;
    const author = a.author;
    this.author.push(
      shared
        ? this.dict.authors.code(author)
        : this.dict.authors.codeFresh(author, () => ({ id: author.id, name: author.name })),
    );
    this.story.push(a.story.id);
    this.flags.push(
      (a.is_clickbait ? FLAG.clickbait : 0) |
        (a.is_duplicate ? FLAG.duplicate : 0) |
        (a.is_free ? FLAG.free : 0) |
        (a.is_breaking ? FLAG.breaking : 0),
    );
    const s = a.sentiment;
    this.sentimentOverall.push(s.overall.score);
    this.sentimentTitle.push(s.title.score);
    this.sentimentBody.push(s.body.score);
    this.polarityOverall.push(polarityCode(s.overall.polarity, s.overall.score));
    this.polarityTitle.push(polarityCode(s.title.polarity, s.title.score));
    this.polarityBody.push(polarityCode(s.body.polarity, s.body.score));
    const r = a.readability;
    this.fkGrade.push(r.flesch_kincaid_grade);
    this.ease.push(r.flesch_reading_ease);
    this.ari.push(r.automated_readability_index);
    this.readingAge.push(r.reading_age);
    this.difficulty.push(this.dict.difficulties.code(r.difficulty_level));
    this.audience.push(this.dict.audiences.code(r.target_audience));
    this.readTime.push(a.read_time);
    this.sentencesCount.push(a.sentences_count);
    this.paragraphsCount.push(a.paragraphs_count);
    this.charactersCount.push(a.characters_count);
    this.wordsCount.push(a.words_count);
    this.sharesFacebook.push(a.shares.facebook);
    this.sharesTwitter.push(a.shares.twitter);
    this.sharesReddit.push(a.shares.reddit);
    this.bodyKind.push(body.kind);
    this.bodyRef.push(body.ref);
    this.bodyLength.push(body.length ?? 0);
    this.bodyDate.push(body.date ?? -1);
    this.titles.push(a.title);

    this.list(this.categories, a.categories, (c) =>
      this.categoryCode.push(this.dict.categories.code(c)),
    );
    this.list(this.topics, a.topics, (t) => this.topicCode.push(this.dict.topics.code(t)));
    this.list(this.industries, a.industries, (i) =>
      this.industryCode.push(this.dict.industries.code(i)),
    );
    this.list(this.events, a.events, (e) =>
      this.eventCode.push(shared ? this.dict.events.code(e) : this.dict.events.codeFresh(e)),
    );
    this.list(this.entities, a.entities, (e) => {
      this.entityCode.push(this.entityCodeOf(e));
      this.entityFrequency.push(e.frequency);
      this.entityScore.push(e.sentiment.score);
      this.entityPolarity.push(polarityCode(e.sentiment.polarity, e.sentiment.score));
    });
    const located = a.locations_mentioned.filter((l) => l.lat !== null && l.lng !== null);
    this.list(this.places, located, (l) => {
      this.placeCode.push(shared ? this.dict.places.code(l) : this.dict.places.codeFresh(l));
      const lower = l.name.toLowerCase();
      const entity = a.entities.find(
        (e) => e.type === 'location' && e.name.toLowerCase() === lower,
      );
      this.placeEntity.push(entity?.id ?? Number.NaN);
    });
    let videos = 0;
    const images = a.media.filter((m) => {
      if (m.type !== 'image') videos++;
      return m.type === 'image';
    });
    this.videoCount.push(videos);
    this.list(this.images, images, (m) => {
      this.imageWidth.push(m.width);
      this.imageHeight.push(m.height);
    });
    const pieces = a.wordPieces;
    this.words(this.titleWords, this.titleWord, a.title, pieces?.[0]);
    this.words(this.descriptionWords, this.descriptionWord, a.description, pieces?.[1]);
    return row;
  }

  /**
   * Mentions of one catalogue entity share its links and metadata objects:
   * once coded, they are found again by those references, without a key.
   */
  private readonly entitiesSeen = new Map<
    number,
    { links: object; metadata: object; name: string; type: string; code: number }[]
  >();

  private entityCodeOf(e: Article['entities'][number]): number {
    let seen = this.entitiesSeen.get(e.id);
    for (const s of seen ?? []) {
      if (
        s.links === e.links &&
        s.metadata === e.metadata &&
        s.name === e.name &&
        s.type === e.type
      )
        return s.code;
    }
    const { id, name, type, links, metadata } = e;
    const code = this.dict.entities.code({ id, name, type, links, metadata });
    if (seen === undefined) {
      seen = [];
      this.entitiesSeen.set(id, seen);
    }
    seen.push({ links, metadata, name, type, code });
    return code;
  }

  private list<T>(column: ListColumn, items: readonly T[], add: (item: T) => void): void {
    for (const item of items) add(item);
    column.start.push(column.start.data[column.start.length - 1]! + items.length);
  }

  /** The words' codes of each piece of generated text (TableArticle.wordPieces), coded once. */
  private readonly pieceCodes = new Map<string, Int32Array>();

  private words(
    column: ListColumn,
    values: Grow<Int32Array>,
    text: string,
    pieces: readonly string[] | undefined,
  ): void {
    if (pieces === undefined) {
      for (const w of tokenize(text)) values.push(this.dict.words.code(w));
    } else {
      for (const piece of pieces) {
        let codes = this.pieceCodes.get(piece);
        if (codes === undefined) {
          codes = Int32Array.from(tokenize(piece), (w) => this.dict.words.code(w));
          this.pieceCodes.set(piece, codes);
        }
        for (let i = 0; i < codes.length; i++) values.push(codes[i] as number);
      }
    }
    column.start.push(values.length);
  }

  /** Adds rows (already appended) to the index, keeping it newest first. */
  insert(rows: readonly number[]): void {
    const published = this.published.data;
    const id = this.id.data;
    this.index.insert(
      rows,
      (a, b) => published[a]! > published[b]! || (published[a] === published[b] && id[a]! > id[b]!),
    );
  }

  /** Takes rows out of the index; their values stay until the table is compacted. */
  remove(rows: ReadonlySet<number>): void {
    this.index.remove(rows);
  }

  /** Rows appended but no longer in the index. */
  get dropped(): number {
    return this.rows - this.index.length;
  }
}
