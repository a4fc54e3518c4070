/**
 * What a usable API key looks like to HTTP. A key travels in a header
 * (`X-API-Key`, `Authorization`) or the query string; a character a header
 * cannot carry makes undici refuse the request locally ("invalid x-api-key
 * header"), which used to surface as a network failure after every retry.
 * Surrounding whitespace (a key pasted with its line end, `$(cat key.txt)`
 * from a CRLF file) is trimmed; anything else outside visible ASCII is a key
 * problem, refused before anything is sent. The key itself is never quoted.
 */
import { UsageError } from './errors.js';

/** Surrounding whitespace removed; an empty result is no key at all. */
export function trimApiKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const key = raw.trim();
  return key === '' ? undefined : key;
}

/** Why `key` cannot be sent, or undefined when it can. */
export function apiKeyProblem(key: string): string | undefined {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x21 && c <= 0x7e) continue;
    const code = `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    const where = `at character ${i + 1} of ${key.length}`;
    if (c === 0x0a || c === 0x0d) return `a line break (${code}) ${where}`;
    if (c === 0x20 || c === 0x09) return `white space (${code}) ${where}`;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return `a control character (${code}) ${where}`;
    return `a character that cannot go in an HTTP header (${code}) ${where}`;
  }
  return undefined;
}

/** The key trimmed and checked; a UsageError (exit 2) naming the problem, never the key. */
export function checkApiKey(raw: string | undefined): string | undefined {
  const key = trimApiKey(raw);
  if (key === undefined) return undefined;
  const problem = apiKeyProblem(key);
  if (problem !== undefined) {
    throw new UsageError(`the API key contains ${problem}`, {
      hint: 'API keys are visible ASCII only: copy the key again, or set it with `news config set api-key KEY`',
    });
  }
  return key;
}
