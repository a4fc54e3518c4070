/**
 * A tool call's arguments → the command's input, as the command line would
 * have given it: positional arguments, parameters by API name (checked by
 * the command with the table, as a flag would be), --limit. What only the
 * server knows is checked here: unknown arguments and filter names (with
 * the nearest names), limit, page and fields.
 */
import { UsageError } from '../../api/errors.js';
import { closestNames } from '../../output/closest-name.js';
import type { RawValue } from '../../params/types.js';
import type { RawParam } from '../../params/validate.js';
import type { CommandInput } from '../command-spec.js';
import { LIMIT_DEFAULT, LIMIT_MAX } from './schema.js';
import type { ToolBinding } from './tools.js';

export interface ParsedCall {
  readonly input: CommandInput;
  /** Records the result holds at most (a file's records, for export_news). */
  readonly limit: number | undefined;
  readonly page: number;
  readonly fields: readonly string[] | undefined;
  readonly countTotal: boolean;
}

type Args = Readonly<Record<string, unknown>>;

function nearest(typed: string, names: readonly string[]): string | undefined {
  const close = closestNames(typed, names);
  return close.length === 0 ? undefined : `did you mean ${close.join(', ')}?`;
}

function wholeNumber(name: string, value: unknown, max: number | undefined): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || (max !== undefined && n > max)) {
    const range = max === undefined ? 'at least 1' : `from 1 to ${max}`;
    throw new UsageError(
      `${name} must be a whole number ${range} (got ${JSON.stringify(value)})`,
      name === 'limit' && max !== undefined
        ? { hint: `a call returns at most ${max} records: page on with page, or export_news` }
        : {},
    );
  }
  return n;
}

/** One value as the command line would carry it: a list joined with commas. */
function rawValue(label: string, value: unknown): RawValue {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.join(',');
  }
  throw new UsageError(
    `${label} must be a string, a number, a boolean or a list of strings (got ${JSON.stringify(value)})`,
  );
}

function fieldList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const list =
    typeof value === 'string'
      ? value.split(',')
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? (value as string[])
        : undefined;
  if (list === undefined) throw new UsageError('fields must be a list of dotted field names');
  const names = list.map((f) => f.trim()).filter((f) => f !== '');
  return names.length === 0 ? undefined : names;
}

function positional(binding: ToolBinding, args: Args): string[] {
  const out: string[] = [];
  for (const arg of binding.args) {
    const value = args[arg.name];
    if (value === undefined || value === null) {
      if (arg.required === false) continue;
      throw new UsageError(`${arg.name} is required: ${arg.description}`);
    }
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v !== 'string' && typeof v !== 'number') {
        throw new UsageError(`${arg.name} must be ${arg.variadic ? 'a list of ' : ''}ids or text`);
      }
      out.push(String(v));
    }
  }
  return out;
}

export function parseArguments(binding: ToolBinding, args: Args): ParsedCall {
  const name = binding.definition.name;
  const known = Object.keys(binding.definition.inputSchema['properties'] as object);
  // A list the endpoint answers whole takes `page` too, unlisted: it is how `next` continues it.
  if (binding.list && !binding.pages && !binding.exports) known.push('page');
  for (const key of Object.keys(args)) {
    if (known.includes(key)) continue;
    const inFilters = binding.table.has(key) && known.includes('filters');
    throw new UsageError(`${key} is not an argument of ${name}`, {
      hint: inFilters
        ? `give it in filters: {"filters": {"${key}": …}}`
        : nearest(key, [...known, ...binding.table.keys()]),
    });
  }
  const params: RawParam[] = [];
  for (const def of binding.direct) {
    const value = args[def.name];
    if (value !== undefined && value !== null)
      params.push({ name: def.name, raw: rawValue(def.name, value), label: def.name });
  }
  const filters = args['filters'];
  if (filters !== undefined && filters !== null) {
    if (typeof filters !== 'object' || Array.isArray(filters)) {
      throw new UsageError('filters must be an object of API parameter names and values');
    }
    for (const [key, value] of Object.entries(filters)) {
      if (key === 'per_page' && binding.pages && !binding.exports) {
        throw new UsageError('filters: per_page is what limit sets', {
          hint: 'give limit (records a call returns, 1 to 100)',
        });
      }
      if (!binding.table.has(key)) {
        throw new UsageError(`filters: ${key} is not a parameter of ${name}`, {
          hint: nearest(key, [...binding.table.keys()]) ?? 'news://docs/parameters lists them',
        });
      }
      if (value !== undefined && value !== null)
        params.push({ name: key, raw: rawValue(key, value), label: key });
    }
  }
  const page = args['page'] === undefined ? 1 : wholeNumber('page', args['page'], undefined);
  if (page !== 1 && binding.pages) params.push({ name: 'page', raw: page, label: 'page' });

  const options: Record<string, unknown> = {};
  let limit: number | undefined;
  if (binding.exports) {
    if (args['all'] === true) options['all'] = true;
    else limit = wholeNumber('limit', args['limit'] ?? LIMIT_MAX, undefined);
  } else if (binding.list) {
    limit = wholeNumber('limit', args['limit'] ?? LIMIT_DEFAULT, LIMIT_MAX);
  }
  if (binding.exports) {
    if (limit !== undefined) options['limit'] = String(limit);
  } else if (binding.pages && limit !== undefined) {
    // One call, one page of `limit` records: as `--per-page`, so what the command line
    // refuses for one page (a title search over 31 days, ER0110) is refused here too.
    params.push({ name: 'per_page', raw: limit, label: 'limit' });
  }
  // Table order, as the command line hands them over.
  const order = [...binding.table.keys()];
  params.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  return {
    input: { args: positional(binding, args), options, params },
    limit,
    page,
    fields: fieldList(args['fields']),
    countTotal: args['count_total'] === true,
  };
}
