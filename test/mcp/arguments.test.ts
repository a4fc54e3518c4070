/**
 * A tool call's arguments become the command's input as the command line
 * would give it; what only the server knows (unknown names, limit, page,
 * fields) is refused here with the argument's name and the nearest names.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/registry.js';
import { parseArguments } from '../../src/cli/mcp/arguments.js';
import { buildTools } from '../../src/cli/mcp/tools.js';
import { UsageError } from '../../src/params/errors.js';

const tools = buildTools(COMMANDS);
const tool = (name: string) => tools.find((t) => t.definition.name === name)!;

function refusal(name: string, args: Record<string, unknown>): UsageError {
  try {
    parseArguments(tool(name), args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('not refused');
}

describe('parseArguments', () => {
  it('turns direct arguments and filters into parameters, lists joined, in table order', () => {
    const call = parseArguments(tool('search_news'), {
      'sentiment.overall.polarity': 'negative',
      'language.code': ['en', 'fr'],
      filters: { is_breaking: true, 'source.bias': ['left'] },
      limit: 5,
      page: 2,
      fields: ['id', 'title'],
    });
    expect(call.input.params).toEqual([
      { name: 'page', raw: 2, label: 'page' },
      { name: 'per_page', raw: 5, label: 'limit' },
      { name: 'language.code', raw: 'en,fr', label: 'language.code' },
      { name: 'source.bias', raw: 'left', label: 'source.bias' },
      { name: 'sentiment.overall.polarity', raw: 'negative', label: 'sentiment.overall.polarity' },
      { name: 'is_breaking', raw: true, label: 'is_breaking' },
    ]);
    // One call is one page of `limit` records (per_page), not a paged run.
    expect(call.input.options).toEqual({});
    expect(call.limit).toBe(5);
    expect(call.page).toBe(2);
    expect(call.fields).toEqual(['id', 'title']);
  });

  it('leaves per_page to limit', () => {
    expect(refusal('search_news', { filters: { per_page: 50 } }).message).toBe(
      'filters: per_page is what limit sets',
    );
  });

  it('defaults limit to 10 and refuses more than 100, naming limit', () => {
    expect(parseArguments(tool('search_news'), {}).limit).toBe(10);
    const error = refusal('search_news', { limit: 101 });
    expect(error.message).toMatch(/^limit must be a whole number from 1 to 100/);
    expect(refusal('search_news', { limit: 0 }).message).toMatch(/^limit/);
    expect(refusal('search_news', { limit: 2.5 }).message).toMatch(/^limit/);
  });

  it('lets export_news write more than 100 records, or every one', () => {
    expect(
      parseArguments(tool('export_news'), { output: 'x.csv', limit: 5000 }).input.options,
    ).toEqual({ limit: '5000' });
    expect(
      parseArguments(tool('export_news'), { output: 'x.csv', all: true }).input.options,
    ).toEqual({
      all: true,
    });
  });

  it('names the nearest filter for an unknown one', () => {
    const error = refusal('search_news', { filters: { is_breakin: 1 } });
    expect(error.message).toBe('filters: is_breakin is not a parameter of search_news');
    expect(error.hint).toMatch(/is_breaking/);
  });

  it('sends a table parameter given at the top level to filters', () => {
    const error = refusal('search_news', { is_breaking: true });
    expect(error.message).toBe('is_breaking is not an argument of search_news');
    expect(error.hint).toMatch(/filters/);
    expect(refusal('search_news', { limt: 3 }).hint).toMatch(/limit/);
  });

  it('takes positional arguments as ids', () => {
    expect(parseArguments(tool('get_person'), { id: 10001 }).input.args).toEqual(['10001']);
    expect(parseArguments(tool('get_articles'), { ids: [1, 2] }).input.args).toEqual(['1', '2']);
    expect(refusal('get_person', {}).message).toMatch(/^id is required/);
  });

  it('refuses values no flag could carry', () => {
    expect(refusal('search_news', { title: { a: 1 } }).message).toMatch(/^title must be/);
    expect(refusal('search_news', { filters: ['x'] }).message).toMatch(
      /^filters must be an object/,
    );
    expect(refusal('search_news', { fields: 3 }).message).toMatch(/^fields/);
  });
});
