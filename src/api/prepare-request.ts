/**
 * Turns a request spec into the exact URL, headers and body text to send.
 * Shared by the client and `describeRequest`, so `--dry-run` shows precisely
 * what a real run would send.
 */
import type { AuthMethod, Query, RequestSpec } from './types.js';

export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  bodyText: string | undefined;
}

export interface PrepareContext {
  baseUrl: string;
  auth: AuthMethod;
  apiKey: string | undefined;
  userAgent: string;
}

export function userAgentFor(version: string): string {
  return `news-cli/${version} (node ${process.version})`;
}

export function prepareRequest(spec: RequestSpec, ctx: PrepareContext): PreparedRequest {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': ctx.userAgent,
  };
  let bodyText: string | undefined;
  if (spec.body !== undefined) {
    bodyText = JSON.stringify(spec.body);
    headers['content-type'] = 'application/json';
  }
  const params = toSearchParams(spec.query);
  if (ctx.apiKey !== undefined && ctx.apiKey !== '') {
    if (ctx.auth === 'header') headers['x-api-key'] = ctx.apiKey;
    else if (ctx.auth === 'bearer') headers['authorization'] = `Bearer ${ctx.apiKey}`;
    else params.set('api_key', ctx.apiKey);
  }
  const qs = params.toString();
  const url = joinUrl(ctx.baseUrl, spec.path) + (qs === '' ? '' : `?${qs}`);
  return { method: spec.method, url, headers, bodyText };
}

/** Keeps a path prefix of the base URL (`https://gw.example/news/`), which `new URL(path, base)` would drop. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

function toSearchParams(query: Query | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (query === undefined) return params;
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params;
}
