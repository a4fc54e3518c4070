/**
 * Facets and highlighting of a search response. Both sit beside the records
 * in the envelope, so the record exporter alone would drop them: facets become
 * records of their own (`--facets-only`, or a table after the records on a
 * terminal, facets.ts), highlights go into each record's `highlight` field.
 * Nothing here draws: every list command loads it, whatever the format.
 */
import type { ApiRecord } from '../../output/types.js';

/** One facet value: a row of `--facets-only`. */
export interface FacetRow {
  readonly facet: string;
  readonly value: string;
  readonly name: string | null;
  readonly count: number;
}

/** The envelope's `facets` object ({field: [{value, count, name?}]}) as rows, in its order. */
export function facetRows(facets: unknown): FacetRow[] {
  if (typeof facets !== 'object' || facets === null || Array.isArray(facets)) return [];
  const rows: FacetRow[] = [];
  for (const [facet, values] of Object.entries(facets)) {
    if (!Array.isArray(values)) continue;
    for (const item of values) {
      if (typeof item !== 'object' || item === null) continue;
      const { value, count, name } = item as Record<string, unknown>;
      if (typeof count !== 'number') continue;
      rows.push({
        facet,
        value: String(value),
        name: typeof name === 'string' ? name : null,
        count,
      });
    }
  }
  return rows;
}

/**
 * Records with the response's highlights (`{id: {field: [snippet]}}`) in a
 * `highlight` field. Returns the same array when there are none.
 */
export function withHighlights(records: ApiRecord[], highlighting: unknown): ApiRecord[] {
  if (typeof highlighting !== 'object' || highlighting === null) return records;
  const map = highlighting as Record<string, unknown>;
  if (Object.keys(map).length === 0) return records;
  return records.map((r) => {
    const h = map[String(r['id'])];
    return h === undefined ? r : { ...r, highlight: h };
  });
}
