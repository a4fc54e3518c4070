/**
 * Bounds on what a JSON body may hold, checked once after parsing and before
 * any route reads it. Deeply nested data used to reach the search routes'
 * recursive code (a 10,000-level article answered 500 on every later search);
 * no filter set or article is more than a few levels deep.
 */
import { MockHttpError } from './error-envelope.js';

/** Deepest nesting of arrays and objects in a request body (an article needs 7). */
export const MAX_JSON_DEPTH = 32;

/** 400 naming the limit when `value` nests deeper than `MAX_JSON_DEPTH`. Iterative: any depth is safe to check. */
export function assertJsonDepth(value: unknown, max = MAX_JSON_DEPTH): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) {
      throw new MockHttpError(
        400,
        undefined,
        `Request body nests arrays and objects deeper than ${max} levels (the mock's limit).`,
      );
    }
    for (const child of Array.isArray(item) ? item : Object.values(item))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
}
