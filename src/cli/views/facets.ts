/**
 * The facets of a search response drawn for the terminal, after the records.
 * Reading them from the envelope is facet-rows.ts, which draws nothing: a
 * list command in any format loads that one, and this one (cli-table3 under
 * it) only when it draws.
 */
import type { FacetRow } from './facet-rows.js';
import { rankedTable } from './ranked-table.js';

/** Each facet as a ranked list with bars, for the terminal. */
export function renderFacets(rows: readonly FacetRow[], width: number): string {
  const byFacet = new Map<string, FacetRow[]>();
  for (const row of rows) byFacet.set(row.facet, [...(byFacet.get(row.facet) ?? []), row]);
  const blocks: string[] = [];
  for (const [facet, values] of byFacet) {
    const lines = rankedTable(
      `facet ${facet}`,
      values.map((v) => ({
        label: v.name ?? v.value,
        extra: v.name === null ? undefined : v.value,
        count: v.count,
      })),
      width,
      values.length,
    );
    blocks.push(lines.join('\n'));
  }
  return `\n${blocks.join('\n\n')}\n`;
}
