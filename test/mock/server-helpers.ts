/** Shared plumbing of the server tests: a server on 127.0.0.1:0, requests, OpenAPI schemas. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { type MockServer, type MockServerOptions, startMockServer } from '../../src/mock/server.js';
import { NOW, fakeEngine, makeStore } from './server-fixture.js';

export function startTestServer(options: MockServerOptions = {}): Promise<MockServer> {
  return startMockServer({
    store: makeStore(),
    searchEngine: fakeEngine,
    now: NOW,
    quiet: true,
    ...options,
  });
}

export interface CallOptions {
  key?: string;
  via?: 'header' | 'bearer' | 'query';
  body?: unknown;
  /** Sent as is (for malformed JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function call(
  server: MockServer,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const url = new URL(path, server.url);
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) {
    const via = options.via ?? 'header';
    if (via === 'header') headers['x-api-key'] = options.key;
    else if (via === 'bearer') headers['authorization'] = `Bearer ${options.key}`;
    else url.searchParams.set('api_key', options.key);
  }
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

// The project's copy of the provider's document (spec/README.md).
const here = dirname(fileURLToPath(import.meta.url));
const openapiPath = resolve(here, '../../spec/openapi.json');
interface OpenApi {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>
  >;
}
const openapi = JSON.parse(readFileSync(openapiPath, 'utf8')) as OpenApi;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

/** The response schema the provider publishes for one path, method and status. */
export function schemaOf(path: string, method: string, status: number): ValidateFunction {
  const id = `${method} ${path} ${status}`;
  let validate = compiled.get(id);
  if (validate === undefined) {
    const schema =
      openapi.paths[path]?.[method.toLowerCase()]?.responses[String(status)]?.content?.[
        'application/json'
      ]?.schema;
    if (schema === undefined) throw new Error(`no schema for ${id}`);
    validate = ajv.compile(schema);
    compiled.set(id, validate);
  }
  return validate;
}

/** Fails with ajv's messages, which say which field is wrong. */
export function assertMatches(path: string, method: string, status: number, body: unknown): void {
  const validate = schemaOf(path, method, status);
  if (!validate(body))
    throw new Error(`${method} ${path} ${status}: ${JSON.stringify(validate.errors, null, 1)}`);
}

/** The specification's error envelope. */
export interface ErrorEnvelope {
  status: string;
  request_id: string;
  errors: {
    status: number;
    code?: string;
    message: string;
    links: { about: string };
    timestamp: string;
  }[];
}

/**
 * The specification's error envelope: `{status: 'not_ok', request_id, errors:
 * [{status, code, message, links.about, timestamp}]}`, request_id equal to the header.
 */
export function expectEnvelope(r: CallResult, status: number, code?: string): void {
  expect(r.status, r.text.slice(0, 300)).toBe(status);
  const body = r.json as ErrorEnvelope;
  expect(body.status).toBe('not_ok');
  expect(body.request_id).toBe(r.headers.get('x-request-id'));
  const [e] = body.errors;
  expect(e?.status).toBe(status);
  if (code !== undefined) expect(e?.code).toBe(code);
  expect(typeof e?.message).toBe('string');
  expect(e?.links.about).toMatch(/^https?:\/\//);
  expect(Number.isNaN(Date.parse(e?.timestamp ?? ''))).toBe(false);
}
