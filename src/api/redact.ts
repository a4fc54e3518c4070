/**
 * Keeping the API key out of everything a human or a log can see. In `query`
 * auth mode the key travels in the URL, so every URL shown anywhere goes
 * through `redactUrl`; free text (server messages, network errors) goes through
 * `redactText` in case something echoes the key back.
 */

export const REDACTED = '***';

/** Replaces the value of every `api_key` query parameter (and the key itself, anywhere) with `***`. */
export function redactUrl(url: string, apiKey?: string): string {
  // Regex rather than URL/URLSearchParams: it must also work on half-built or
  // unparsable URLs, and must not re-encode the rest of the query.
  const masked = url.replace(/([?&]api_key=)[^&#]*/gi, `$1${REDACTED}`);
  return redactText(masked, apiKey);
}

/** Removes every occurrence of the key (raw and URL-encoded) from a text. */
export function redactText(text: string, apiKey?: string): string {
  if (apiKey === undefined || apiKey === '') return text;
  let out = text.split(apiKey).join(REDACTED);
  const encoded = encodeURIComponent(apiKey);
  if (encoded !== apiKey) out = out.split(encoded).join(REDACTED);
  return out;
}
