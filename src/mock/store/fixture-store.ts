/**
 * The mock's data set: the article table (table.ts) and each article's JSON
 * (article-json.ts), with the catalogue beside them (sources, people,
 * companies, journalists, the suggest lists) and the lookups the routes need.
 * Built by load.ts (from the store file, or in memory) or by `createStore`
 * (tests, embedding). Dates are already shifted to `now`.
 */
import type {
  Article,
  Company,
  Country,
  EventCategory,
  EventType,
  Journalist,
  Language,
  Person,
  Source,
  SuggestCategory,
  SuggestEntity,
  SuggestIndustry,
  SuggestTopic,
} from '../fixtures/article-types.js';
import type { ArticleJson } from './article-json.js';
import { type ArticleTable, BODY } from './table.js';

export interface Catalogue {
  sources: Source[];
  people: Person[];
  companies: Company[];
  journalists: Journalist[];
  suggest: {
    /** Every entity that occurs in some article (people, companies, places, …). */
    entities: SuggestEntity[];
    categories: SuggestCategory[];
    topics: SuggestTopic[];
    industries: SuggestIndustry[];
  };
  /** The 44 event types with their category. */
  eventTypes: EventType[];
  eventCategories: EventCategory[];
  languages: Language[];
  countries: Country[];
  /** Journalist id → every author record id merged under that name (first = journalist id). */
  journalistAuthorIds: Map<number, number[]>;
  /** Duplicate article id → id of the article it duplicates. */
  duplicateOf: Map<number, number>;
}

type IdList = 'entity' | 'story' | 'author';

/** The lookups by id the routes use, made with the catalogue. */
interface Lookups {
  sourceById: Map<number, Source>;
  entityById: Map<number, SuggestEntity>;
  personById: Map<number, Person>;
  companyById: Map<number, Company>;
  journalistById: Map<number, Journalist>;
}

export class FixtureStore implements Catalogue {
  /** Row of each article id (every row, dropped ones until compaction). */
  private ids = new Map<number, number>();
  private lists: Record<IdList, Map<number, number[]>> | undefined;
  /** Rows the id map and the lists cover, and the table generation they were built for. */
  private covered = { rows: 0, generation: -1, listRows: 0 };
  private decoded: { version: number; generation: number; articles: Article[] } | undefined;
  private maxId = 0;
  private catalogue: Catalogue | undefined;
  private lookups: Lookups | undefined;

  constructor(
    /** The instant every fixture date was shifted to; the newest fixture article is shortly before it. */
    readonly now: Date,
    readonly seed: number,
    readonly table: ArticleTable,
    readonly json: ArticleJson,
    /** The catalogue, or how to read it on first use (a one-shot count never does). */
    private readonly readCatalogue: Catalogue | (() => Catalogue),
  ) {}

  private get c(): Catalogue {
    this.catalogue ??=
      typeof this.readCatalogue === 'function' ? this.readCatalogue() : this.readCatalogue;
    return this.catalogue;
  }

  private get by(): Lookups {
    this.lookups ??= {
      sourceById: new Map(this.sources.map((s) => [s.id, s])),
      entityById: new Map(this.suggest.entities.map((e) => [e.id, e])),
      personById: new Map(this.people.map((p) => [p.id, p])),
      companyById: new Map(this.companies.map((c) => [c.id, c])),
      journalistById: new Map(this.journalists.map((j) => [j.id, j])),
    };
    return this.lookups;
  }

  get sources(): Source[] {
    return this.c.sources;
  }
  get people(): Person[] {
    return this.c.people;
  }
  get companies(): Company[] {
    return this.c.companies;
  }
  get journalists(): Journalist[] {
    return this.c.journalists;
  }
  get suggest(): Catalogue['suggest'] {
    return this.c.suggest;
  }
  get eventTypes(): EventType[] {
    return this.c.eventTypes;
  }
  get eventCategories(): EventCategory[] {
    return this.c.eventCategories;
  }
  get languages(): Language[] {
    return this.c.languages;
  }
  get countries(): Country[] {
    return this.c.countries;
  }
  get journalistAuthorIds(): Map<number, number[]> {
    return this.c.journalistAuthorIds;
  }
  get duplicateOf(): Map<number, number> {
    return this.c.duplicateOf;
  }
  get sourceById(): Map<number, Source> {
    return this.by.sourceById;
  }
  get entityById(): Map<number, SuggestEntity> {
    return this.by.entityById;
  }
  get personById(): Map<number, Person> {
    return this.by.personById;
  }
  get companyById(): Map<number, Company> {
    return this.by.companyById;
  }
  get journalistById(): Map<number, Journalist> {
    return this.by.journalistById;
  }

  /** Articles in the index. */
  get size(): number {
    return this.table.index.length;
  }

  /** The row of an indexed article. */
  rowOf(id: number): number | undefined {
    this.cover();
    const row = this.ids.get(id);
    return row !== undefined && this.table.index.isLive(row) ? row : undefined;
  }

  /** One indexed article as an object (a fresh copy). */
  article(id: number): Article | undefined {
    const row = this.rowOf(id);
    return row === undefined ? undefined : this.json.article(row);
  }

  /**
   * Every indexed article as an object, newest first: for tests and tools
   * (it decodes the whole set; the engine reads the table).
   */
  get articles(): Article[] {
    const { index, generation } = this.table;
    if (this.decoded?.version !== index.version || this.decoded.generation !== generation) {
      this.decoded = {
        version: index.version,
        generation,
        articles: Array.from(index.view, (row) => this.json.article(row)),
      };
    }
    return this.decoded.articles;
  }

  /** The newest id in indexing order (ids grow with it): a new article gets a greater one. */
  newestId(): number {
    this.cover();
    return this.maxId;
  }

  /** Position of a row in the index (0 = newest), or -1 when it is not indexed. */
  positionOf(row: number): number {
    return this.table.index.positionOf(row, this.table.rows);
  }

  /** Rows of the indexed articles mentioning an entity, of a story, or by an author record: newest first. */
  rowsOf(kind: IdList, id: number): number[] {
    this.cover();
    if (this.lists === undefined || this.covered.listRows < this.table.rows) this.buildLists();
    const rows = this.lists?.[kind].get(id) ?? [];
    return rows
      .map((row) => [row, this.positionOf(row)] as const)
      .filter(([, p]) => p >= 0)
      .sort((a, b) => a[1] - b[1])
      .map(([row]) => row);
  }

  /**
   * Adds articles: their columns to the table, their JSON kept in memory,
   * their new entities to the catalogue. Returns their rows.
   */
  add(articles: readonly Article[], createdMs?: number): number[] {
    const rows = articles.map((a) => {
      const bytes = Buffer.from(JSON.stringify(a), 'utf8');
      const ref = this.json.keep(bytes);
      return this.table.append(a, { kind: BODY.memory, ref }, createdMs);
    });
    this.indexed(rows);
    return rows;
  }

  /**
   * Takes in rows just appended to the table by someone else (the publisher's
   * generated articles): into the index and the catalogue.
   */
  indexed(rows: readonly number[]): void {
    this.table.insert(rows);
    for (const row of rows) this.learnEntities(row);
  }

  /** A posted article may name entities the catalogue does not know: suggest and profiles learn them. */
  private learnEntities(row: number): void {
    const t = this.table;
    for (let i = t.entities.from(row); i < t.entities.to(row); i++) {
      const e = t.dict.entities.values[t.entityCode.data[i] as number];
      if (e === undefined || this.entityById.has(e.id)) continue;
      const known: SuggestEntity = {
        id: e.id,
        name: e.name,
        type: e.type as SuggestEntity['type'],
        links: e.links,
        metadata: e.metadata,
      };
      this.entityById.set(e.id, known);
      this.suggest.entities.push(known);
    }
  }

  /** Brings the id map up to the table's rows (rebuilt after a compaction). */
  private cover(): void {
    const t = this.table;
    if (this.covered.generation !== t.generation) {
      this.ids = new Map();
      this.lists = undefined;
      this.covered = { rows: 0, generation: t.generation, listRows: 0 };
    }
    const ids = t.id.data;
    for (let row = this.covered.rows; row < t.rows; row++) {
      const id = ids[row] as number;
      this.ids.set(id, row);
      if (id > this.maxId) this.maxId = id;
    }
    this.covered.rows = t.rows;
  }

  private buildLists(): void {
    const t = this.table;
    this.lists ??= { entity: new Map(), story: new Map(), author: new Map() };
    const { entity, story, author } = this.lists;
    const add = (map: Map<number, number[]>, key: number, row: number): void => {
      const list = map.get(key);
      if (list === undefined) map.set(key, [row]);
      else if (list[list.length - 1] !== row) list.push(row);
    };
    for (let row = this.covered.listRows; row < t.rows; row++) {
      for (let i = t.entities.from(row); i < t.entities.to(row); i++) {
        add(entity, t.dict.entities.values[t.entityCode.data[i] as number]!.id, row);
      }
      add(story, t.story.data[row] as number, row);
      const a = t.dict.authors.values[t.author.data[row] as number];
      if (a !== undefined && a.id !== null) add(author, a.id, row);
    }
    this.covered.listRows = t.rows;
  }
}
