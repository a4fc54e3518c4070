import { UsageError } from '../errors.js';

/**
 * The query language's error codes, one meaning each. The specification reserves
 * ER0701 to ER0706 and ER0710 to ER0712 for query failures without saying which is
 * which, except ER0704 (a wildcard); ER0705 is the provider's "single-character
 * term". ER0706 is not raised here: the specification also gives it to a prompt on
 * the Free or Starter plan (403), and a code keeps one meaning in this project.
 */
export const QUERY_ERROR_CODES = {
  ER0701: 'syntax error',
  ER0702: 'unknown field',
  ER0703: 'invalid value for the field',
  ER0704: 'wildcard (* or ?) in a term',
  ER0705: 'single-character term',
  ER0710: 'unsupported operator (fuzzy ~, boost ^, or an operator the field type does not take)',
  ER0711: 'limit exceeded (length, predicates, nesting depth, values per group)',
  ER0712: 'entity block rule broken (field not allowed inside or outside {{ }}, nested block)',
} as const;

export type QueryErrorCode = keyof typeof QUERY_ERROR_CODES;

/** A query that does not parse or breaks a rule; `position` and `length` are UTF-16 offsets into the text. */
export class QueryError extends UsageError {
  override name = 'QueryError';
  override readonly code: QueryErrorCode;
  /** What is wrong, without the framing of `message`. */
  readonly detail: string;
  readonly position: number;
  readonly length: number;

  constructor(
    code: QueryErrorCode,
    message: string,
    position: number,
    length: number,
    hint?: string | undefined,
  ) {
    super(`query: ${message} (offset ${position}) [${code}]`, { code, hint });
    this.code = code;
    this.detail = message;
    this.position = position;
    this.length = length;
  }
}

/** Throws a QueryError: the only way this module fails. */
export function fail(
  code: QueryErrorCode,
  message: string,
  position: number,
  length: number,
  hint?: string,
): never {
  throw new QueryError(code, message, position, length, hint);
}
