/**
 * Keeping the API key out of everything a human or a log can see. In `query`
 * auth mode the key travels in the URL, so every URL shown anywhere goes
 * through `redactUrl`; free text (server messages, network errors) goes through
 * `redactText` in case something echoes the key back, and server text is
 * always redacted before it is cut (`serverText`): a cut first could leave
 * half a key on screen.
 */

export const REDACTED = '***';

/** Replaces the value of every `api_key` query parameter (and the key itself, anywhere) with `***`. */
export function redactUrl(url: string, apiKey?: string): string {
  // Regex rather than URL/URLSearchParams: it must also work on half-built or
  // unparsable URLs, and must not re-encode the rest of the query.
  const masked = url.replace(/([?&]api_key=)[^&#]*/gi, `$1${REDACTED}`);
  return redactText(masked, apiKey);
}

/**
 * Every form the key may take in text: as sent in a header, percent-encoded
 * as `encodeURIComponent` does, as the query string carries it
 * (`URLSearchParams`: `+` for a space, `~` and `!'()` encoded), each also with
 * lower-case hex digits, as a server that normalises URLs may echo them.
 */
export function keyForms(apiKey: string): string[] {
  const forms = new Set<string>([apiKey]);
  const component = encodeURIComponent(apiKey);
  const query = new URLSearchParams({ k: apiKey }).toString().slice(2);
  for (const f of [component, query]) {
    forms.add(f);
    forms.add(f.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  }
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Keys shorter than this are replaced only where they stand as a whole token:
 * a key `k` must not turn "check the network" into "chec*** the networ***".
 * Everywhere the tool itself prints a key (a URL's `api_key=`, a header, a
 * `Bearer` line) it stands alone, so a short key is still caught there.
 */
const SHORT_KEY_LENGTH = 8;

/** Letters, digits, `_` and `-`: what a short key must not be glued to. */
const WORD_CHAR = '[\\p{L}\\p{N}_-]';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Removes every occurrence of the key (raw and URL-encoded) from a text; a key
 * shorter than `SHORT_KEY_LENGTH` only where it is not part of a longer word.
 */
export function redactText(text: string, apiKey?: string): string {
  if (apiKey === undefined || apiKey === '') return text;
  let out = text;
  for (const form of keyForms(apiKey)) {
    if (!out.includes(form)) continue;
    out =
      apiKey.length < SHORT_KEY_LENGTH
        ? out.replace(
            new RegExp(`(?<!${WORD_CHAR})${escapeRegExp(form)}(?!${WORD_CHAR})`, 'gu'),
            REDACTED,
          )
        : out.split(form).join(REDACTED);
  }
  return out;
}

/** `redactText` over every string (keys included) of a parsed JSON value; a new value. */
export function redactDeep(value: unknown, apiKey?: string, depth = 0): unknown {
  if (apiKey === undefined || apiKey === '') return value;
  if (typeof value === 'string') return redactText(value, apiKey);
  // Parsed JSON is a tree; the depth bound only keeps a hostile nesting from the stack.
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, apiKey, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[redactText(k, apiKey)] = redactDeep(v, apiKey, depth + 1);
  }
  return out;
}

/**
 * Server text fit to show: redacted first, then flattened to one line and cut
 * to `max` characters (an ellipsis marks the cut), never splitting a
 * surrogate pair. Escape sequences are the printer's business (terminal-safe.ts).
 */
export function serverText(text: string, apiKey: string | undefined, max: number): string {
  const oneLine = redactText(text, apiKey).replace(/\s+/g, ' ').trim();
  if (oneLine.length <= max) return oneLine;
  let end = max;
  const last = oneLine.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${oneLine.slice(0, end)}…`;
}
