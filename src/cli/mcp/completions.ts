/**
 * `completion/complete` for prompt and template arguments. Values come from
 * where the parameter table says they do: enumerations and language and
 * country codes from the table itself; topic ids and entity names and ids
 * from the suggest endpoints (free, through the suggest_* tools, so the key,
 * the client and the budget are the calls'). Directory ids of journalists
 * have no suggest endpoint and a list costs points: none are offered.
 */
import type { CompleteRequestParams } from '@modelcontextprotocol/server';
import { COUNTRY_CODES, LANGUAGE_CODES } from '../../params/codes.js';
import { SEARCH_PARAMS } from '../../params/search-params.js';
import type { CallContext, Session } from './call.js';

/** The protocol's cap on values in one completion. */
const MAX_VALUES = 100;

const PERIODS = ['-24h', '-3d', '-7d', '-30d', 'today', 'yesterday'];

const enumOf = (name: string): readonly string[] =>
  SEARCH_PARAMS.find((d) => d.name === name)?.enum ?? [];

type Source =
  | { readonly values: () => readonly string[] }
  | { readonly suggest: string; readonly field: 'id' | 'name'; readonly type?: RegExp };

/** Where each prompt argument's values come from. */
const PROMPT_SOURCES: Readonly<Record<string, Source>> = {
  language: { values: () => LANGUAGE_CODES },
  period: { values: () => PERIODS },
  sort: { values: () => enumOf('sort.by') },
  sentiment: { values: () => enumOf('sentiment.overall.polarity') },
  topic: { suggest: 'suggest_topics', field: 'id' },
  entity: { suggest: 'suggest_entities', field: 'name' },
  // A source domain has no list to complete from; a country code has.
  first: { values: () => COUNTRY_CODES },
  second: { values: () => COUNTRY_CODES },
};

/** Where each template's `{id}` comes from. */
const TEMPLATE_SOURCES: Readonly<Record<string, Source>> = {
  'news://people/{id}': { suggest: 'suggest_entities', field: 'id', type: /^person$/ },
  'news://companies/{id}': {
    suggest: 'suggest_entities',
    field: 'id',
    type: /^(?:organization|company)$/,
  },
};

async function suggested(
  session: Session,
  source: Extract<Source, { suggest: string }>,
  prefix: string,
  context: CallContext,
): Promise<string[]> {
  // The suggest endpoints want a prefix; an empty one would list nothing useful.
  if (prefix.trim() === '') return [];
  const binding = session.tools.find((t) => t.definition.name === source.suggest);
  if (binding === undefined) return [];
  const { callTool } = await import('./call.js');
  const result = await callTool(session, binding, { prefix, limit: 20 }, context);
  if (result.isError === true) return [];
  const records = result.structuredContent?.['results'];
  if (!Array.isArray(records)) return [];
  return records
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
    .filter((r) => source.type === undefined || source.type.test(String(r['type'] ?? '')))
    .map((r) => r[source.field])
    .filter((v) => typeof v === 'string' || typeof v === 'number')
    .map(String);
}

export async function complete(
  session: Session,
  params: CompleteRequestParams,
  context: CallContext,
): Promise<{ values: string[]; total: number; hasMore: boolean }> {
  const { ref, argument } = params;
  const source =
    ref.type === 'ref/prompt'
      ? PROMPT_SOURCES[argument.name]
      : argument.name === 'id'
        ? TEMPLATE_SOURCES[ref.uri]
        : undefined;
  const prefix = argument.value ?? '';
  let values: string[] = [];
  if (source !== undefined && 'values' in source) {
    const lower = prefix.toLowerCase();
    values = source.values().filter((v) => v.toLowerCase().startsWith(lower));
  } else if (source !== undefined) {
    values = await suggested(session, source, prefix, context);
  }
  return {
    values: values.slice(0, MAX_VALUES),
    total: values.length,
    hasMore: values.length > MAX_VALUES,
  };
}
