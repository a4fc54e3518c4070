/**
 * The `query` parameter's language: parse and validate offline, print, describe,
 * and compile to a predicate over any data a QueryTarget can reach. See
 * docs/QUERY-LANGUAGE.md for the grammar, the fields, the limits and the codes.
 */
import type { QueryNode } from './ast.js';
import { QueryError } from './errors.js';
import { Parser } from './parser.js';

export type { QueryNode } from './ast.js';
export { QUERY_LIMITS } from './ast.js';
export { caretLine } from './caret.js';
export { compileQuery } from './compile.js';
export { dateTest } from './dates.js';
export { QUERY_ERROR_CODES, QueryError, type QueryErrorCode } from './errors.js';
export { type QueryFieldInfo, type QueryFieldType, queryFields } from './fields.js';
export { describeQuery, printQuery } from './print.js';
export type { Comparison, QueryTarget } from './target.js';

/** The tree of a query; throws QueryError (and nothing else) when it does not parse or breaks a rule. */
export function parseQuery(text: string): QueryNode {
  return new Parser(text).parse();
}

export type QueryValidation = { ok: true; tree: QueryNode } | { ok: false; error: QueryError };

/** parseQuery without the throw. */
export function validateQuery(text: string): QueryValidation {
  try {
    return { ok: true, tree: parseQuery(text) };
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, error };
    throw error;
  }
}
