import type { FixtureStore } from '../store/fixture-store.js';
import type { ArticleTable } from '../store/table.js';
import { entityAliases } from './aliases.js';
import { type Columns, createColumns } from './columns.js';
import type { FacetField, FacetLookup } from './facets.js';
import { type PromptVocabulary, promptVocabularyOf } from './prompt.js';
import { authorOf, categorySlug } from './row.js';
import { RowSets } from './row-sets.js';
import { tokenize } from './text.js';

/** An entity of the table's dictionary, as the name filters read it. */
export interface EntityNames {
  /** Words of the name, for name filters (`person.name=Musk` is a phrase inside `Elon Musk`). */
  readonly nameTokens: readonly string[];
  /** Words of each other name of the entity (metadata `aliases`), matched like the name. */
  readonly aliasTokens: readonly (readonly string[])[];
}

/**
 * What the engine keeps beside the store: the columns it built (columns.ts)
 * and the lookups filters need. The store's table grows in place (posted and
 * published articles); `refresh` notices and extends.
 */
export class ArticleIndex {
  columns: Columns;
  /** Filters kept as bitmaps between requests (row-sets.ts). */
  readonly rowSets: RowSets;
  private generation: number;
  private names = new Map<string, Set<string>>();
  private namesFrom = -1;
  private entityNames: (EntityNames | undefined)[] = [];
  private authors = new Map<string, number>();
  /** The index version `authors` was read at (a newer article may now be first with a name). */
  private authorsAt = -1;
  private ids: { country: Map<string, number>; language: Map<string, number> } | undefined;

  constructor(readonly store: FixtureStore) {
    this.columns = createColumns(store.table);
    this.rowSets = new RowSets(store.table);
    this.generation = store.table.generation;
  }

  get table(): ArticleTable {
    return this.store.table;
  }

  /** Catches up with the table: rows renumbered (compaction) start the columns again. */
  refresh(): void {
    const t = this.store.table;
    if (t.generation !== this.generation) {
      this.columns = createColumns(t);
      this.generation = t.generation;
    }
  }

  private buildNames(): void {
    this.names = new Map();
    for (const e of this.store.suggest.entities) {
      let set = this.names.get(e.type);
      if (set === undefined) {
        set = new Set();
        this.names.set(e.type, set);
      }
      set.add(e.name.toLowerCase());
      for (const alias of entityAliases(e.metadata)) set.add(alias.toLowerCase());
    }
    this.namesFrom = this.store.suggest.entities.length;
  }

  /** The name and alias words of the table's entity `code` (computed once per entity). */
  namesOf(code: number): EntityNames {
    let names = this.entityNames[code];
    if (names === undefined) {
      const e = this.table.dict.entities.values[code]!;
      names = {
        nameTokens: tokenize(e.name),
        aliasTokens: entityAliases(e.metadata).map(tokenize),
      };
      this.entityNames[code] = names;
    }
    return names;
  }

  /**
   * author.name → the first author record of that name: a journalist's id
   * (the first record merged under the name), else the newest article's byline.
   */
  firstAuthorId = (nameLower: string): number | undefined => {
    const t = this.table;
    if (this.authorsAt !== t.index.version) {
      this.authors = new Map();
      for (const j of this.store.journalists) this.authors.set(j.name.toLowerCase(), j.id);
      this.authorsAt = t.index.version;
    }
    if (this.authors.has(nameLower)) return this.authors.get(nameLower);
    let found: number | undefined;
    const order = t.order;
    for (let p = 0; p < order.length && found === undefined; p++) {
      const a = authorOf(t, order[p] as number);
      if (a.id !== null && a.name.toLowerCase() === nameLower) found = a.id;
    }
    this.authors.set(nameLower, found as number);
    return found;
  };

  /** Whether an entity of this schema type has exactly this name or alias (case-insensitive). */
  knowsEntity(type: string, name: string): boolean {
    // Posted articles may have named new entities since the last call.
    if (this.namesFrom !== this.store.suggest.entities.length) this.buildNames();
    return this.names.get(type)?.has(name.trim().toLowerCase()) ?? false;
  }

  get facetLookup(): FacetLookup {
    const { store } = this;
    this.ids ??= {
      country: new Map(store.countries.map((c) => [c.code.toLowerCase(), c.id])),
      language: new Map(store.languages.map((l) => [l.code.toLowerCase(), l.id])),
    };
    const ids = this.ids;
    return {
      countryId: (code) => ids.country.get(code),
      languageId: (code) => ids.language.get(code),
      name: (field: FacetField, value: string) => {
        switch (field) {
          case 'source.id':
            return store.sourceById.get(Number(value))?.domain;
          case 'source.country.id':
            return store.countries.find((c) => String(c.id) === value)?.name;
          case 'language.id':
            return store.languages.find((l) => String(l.id) === value)?.name;
          case 'category.id':
            return store.suggest.categories.find((c) => categorySlug(c.id) === value)?.name;
          case 'topic.id':
            return store.suggest.topics.find((t) => t.id.toLowerCase() === value)?.name;
          case 'industry.id':
            return store.suggest.industries.find((i) => String(i.id) === value)?.name;
          case 'entity.id':
            return store.entityById.get(Number(value))?.name;
          case 'author.id':
            return this.authorName(Number(value));
          default:
            return undefined;
        }
      },
    };
  }

  /** The byline of an author record id, from its newest article. */
  private authorName(id: number): string | undefined {
    const [row] = this.store.rowsOf('author', id);
    return row === undefined ? undefined : authorOf(this.table, row).name;
  }

  get promptVocabulary(): PromptVocabulary {
    return promptVocabularyOf(this.store);
  }
}
