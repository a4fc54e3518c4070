/**
 * What `--dry-run` prints: the request as it would be sent, with the key
 * replaced by `***`, plus an equivalent curl command that reads the key from
 * `$NEWS_API_KEY` so it can be pasted without leaking or retyping the key.
 */
import { type PrepareContext, prepareRequest } from './prepare-request.js';
import { REDACTED, redactText, redactUrl } from './redact.js';
import type { RequestSpec } from './types.js';

export interface RequestDescription {
  method: string;
  /** Key redacted in `query` auth mode. */
  url: string;
  /** Lower-case names; the key (X-API-Key or Authorization) shown as `***`. */
  headers: Record<string, string>;
  /** The JSON body as a value, when there is one. */
  body?: unknown;
  /** The JSON body exactly as it would be sent. */
  bodyText?: string;
  curl: string;
}

const KEY_VAR = '$NEWS_API_KEY';

export function describeRequest(spec: RequestSpec, ctx: PrepareContext): RequestDescription {
  // Describe with a placeholder key, so even without a configured key the
  // curl command shows where the key goes.
  const placeholder = 'NEWS_API_KEY_PLACEHOLDER_7f3a';
  const prepared = prepareRequest(withoutBodyKey(spec), { ...ctx, apiKey: placeholder });
  // A key passed as an explicit `api_key` parameter is a key too.
  const curlUrl = prepared.url.replace(
    /([?&]api_key=)(?!NEWS_API_KEY_PLACEHOLDER)[^&#]*/gi,
    `$1${REDACTED}`,
  );
  const hide = (text: string): string =>
    redactText(text.split(placeholder).join(REDACTED), ctx.apiKey);

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(prepared.headers)) headers[name] = hide(value);
  const url = hide(redactUrl(prepared.url));
  const bodyText = prepared.bodyText === undefined ? undefined : hide(prepared.bodyText);

  const curlParts = ['curl', '-sS', '-X', prepared.method, quoteWithKey(curlUrl, placeholder)];
  for (const [name, value] of Object.entries(prepared.headers)) {
    curlParts.push('-H', quoteWithKey(`${displayName(name)}: ${value}`, placeholder));
  }
  if (bodyText !== undefined) curlParts.push('--data-raw', shellQuote(bodyText));

  const description: RequestDescription = {
    method: prepared.method,
    url,
    headers,
    curl: curlParts.join(' '),
  };
  if (bodyText !== undefined) {
    description.bodyText = bodyText;
    description.body = JSON.parse(bodyText) as unknown;
  }
  return description;
}

function withoutBodyKey(spec: RequestSpec): RequestSpec {
  const body = spec.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('api_key' in body)) {
    return spec;
  }
  return { ...spec, body: { ...body, api_key: REDACTED } };
}

/** POSIX single-quoting: safe for any byte except NUL. */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Quotes a word, leaving `$NEWS_API_KEY` outside single quotes so the shell expands it. */
function quoteWithKey(text: string, placeholder: string): string {
  const pieces = text.split(placeholder);
  if (pieces.length === 1) return shellQuote(text);
  return pieces.map((piece) => (piece === '' ? '' : shellQuote(piece))).join(`"${KEY_VAR}"`);
}

/** Conventional capitalisation for readability in the curl line (HTTP names are case-insensitive). */
function displayName(name: string): string {
  if (name === 'x-api-key') return 'X-API-Key';
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => dash + ch.toUpperCase());
}
