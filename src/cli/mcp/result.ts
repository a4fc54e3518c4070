/**
 * What a call returns: structuredContent (results, how many matched,
 * whether more remain) and a short text rendering for clients that read
 * only text, or a tool error with the CLI's own error and hint lines, the
 * service's code and request id. The key is redacted from all of it.
 */
import { ApiError, UsageError } from '../../api/errors.js';
import { redactDeep } from '../../api/redact.js';
import type { ApiRecord } from '../../output/types.js';
import { searchParamByFlag } from '../../params/registry.js';
import { describeFailure } from '../exit-codes.js';
import type { ParsedCall } from './arguments.js';
import type { CallTap } from './guarded-client.js';
import { budgetLine } from './result-budget.js';
import type { ToolBinding } from './tools.js';

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta: Record<string, unknown>;
}

/** An article's description in a result: a glance, not the article. */
const DESCRIPTION_CHARS = 300;

/** A record's whole text, left out unless `fields` asks for it (raw articles carry theirs). */
const LONG_TEXT = ['body', 'body_html'];

function shorten(record: ApiRecord): ApiRecord {
  const out: ApiRecord = { ...record };
  for (const key of LONG_TEXT) delete out[key];
  const description = record['description'];
  if (typeof description === 'string' && description.length > DESCRIPTION_CHARS) {
    out['description'] = `${description.slice(0, DESCRIPTION_CHARS - 1).trimEnd()}…`;
  }
  return out;
}

/** structuredContent of a read tool, from the records the command handed over and the pages it read. */
export function listContent(
  binding: ToolBinding,
  call: ParsedCall,
  records: readonly ApiRecord[],
  tap: CallTap,
  notes: readonly string[],
): Record<string, unknown> {
  let results = [...records];
  // A list the endpoint answers whole (suggest, trends, event types) is counted before the cut.
  let matched = results.length;
  let more = false;
  let exact = true;
  const before = binding.pages && call.limit !== undefined ? (call.page - 1) * call.limit : 0;
  if (binding.pages) {
    const last = tap.pages.at(-1);
    more = tap.capped || (last !== undefined && (last.hasNext || last.held > last.records));
    matched = before + results.length;
    exact = !more;
  } else if (call.limit !== undefined) {
    // A list the endpoint answers whole: `page` (given by `next`) picks a later part of it.
    const start = (call.page - 1) * call.limit;
    more = results.length > start + call.limit;
    if (start > 0 || more) results = results.slice(start, start + call.limit);
  }
  if (call.fields === undefined) results = results.map(shorten);
  const count = results[0]?.['count'];
  if (binding.returns === 'count' && typeof count === 'number') matched = count;
  if (tap.expected !== undefined && call.countTotal) {
    matched = tap.expected;
    exact = true;
    more = matched > before + results.length;
  }
  return {
    results,
    returned: results.length,
    matched,
    matched_exact: exact,
    has_more: more,
    ...(more && binding.pages ? { next_page: call.page + 1 } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** How the text's first line names the records and the budget, when a result was cut. */
export interface CutWords {
  readonly max: number;
  readonly noun: string;
}

/**
 * The text content: when the result was cut, a line saying so and how to
 * continue; one line of counts; then one compact JSON line per record.
 */
export function renderList(name: string, content: Record<string, unknown>, cut?: CutWords): string {
  const results = content['results'] as unknown[];
  const more = content['has_more'] === true;
  const matched = `${content['matched_exact'] === true ? '' : 'at least '}${String(content['matched'])} matched`;
  const next =
    content['next_page'] === undefined ? '' : `; next: page ${String(content['next_page'])}`;
  const head = `${name}: ${results.length} result${results.length === 1 ? '' : 's'}, ${matched}${more ? `, more remain${next}` : ''}`;
  const notes = ((content['notes'] as string[] | undefined) ?? []).map((n) => `note: ${n}`);
  const first = cut === undefined ? [] : budgetLine(content, cut.max, cut.noun);
  return [...first, head, ...notes, ...results.map((r) => JSON.stringify(r))].join('\n');
}

export function success(
  content: Record<string, unknown>,
  text: string,
  meta: Record<string, unknown>,
  secret: string | undefined,
): ToolResult {
  return redactDeep(
    { content: [{ type: 'text', text }], structuredContent: content, _meta: meta },
    secret,
  ) as ToolResult;
}

/**
 * The CLI's words in an agent's terms: a parameter's flag (`--published-at-start`)
 * becomes its API name, the argument a tool takes; the command that lists
 * the query fields becomes the resource that does.
 */
export function inToolTerms(line: string): string {
  return line
    .replace(/--\*-([a-z]+)\b/g, '*.$1')
    .replace(/--([a-z0-9]+(?:-[a-z0-9]+)*)/g, (flag, name: string) => {
      const def = searchParamByFlag(name);
      return def === undefined ? flag : def.name;
    })
    .replace('`news query fields` lists', 'the resource news://docs/fields lists');
}

/** A refusal or a failure as a tool error: the CLI's lines, and what a program reads in _meta. */
export function failure(
  error: unknown,
  meta: Record<string, unknown>,
  secret: string | undefined,
): ToolResult {
  const { lines } = describeFailure(error, false, secret);
  const detail: Record<string, unknown> = {};
  if (error instanceof UsageError && error.code !== undefined) detail['code'] = error.code;
  if (error instanceof ApiError) {
    detail['status'] = error.status;
    if (error.code !== undefined) detail['code'] = error.code;
    if (error.requestId !== undefined) detail['request_id'] = error.requestId;
  }
  return redactDeep(
    {
      content: [{ type: 'text', text: lines.map(inToolTerms).join('\n') }],
      isError: true,
      _meta: { ...meta, ...(Object.keys(detail).length > 0 ? { error: detail } : {}) },
    },
    secret,
  ) as ToolResult;
}
