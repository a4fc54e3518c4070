/** Reading request bodies and writing JSON answers, with the limits the mock enforces. */
import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { MockHttpError } from './error-envelope.js';

/** API bodies are filter sets: 1 MiB is generous. */
export const API_BODY_LIMIT = 1024 * 1024;
/** `POST /__mock/articles` may carry thousands of full articles. */
export const ADMIN_BODY_LIMIT = 64 * 1024 * 1024;
/** Most articles one `POST /__mock/articles` may carry (413 beyond; checked by the route). */
export const MAX_POSTED_ARTICLES = 10_000;

export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  // Events rather than `for await`: this runs on every POST and the async
  // iterator costs more than the small bodies it reads.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () =>
      resolve(
        chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'),
      ),
    );
    req.once('error', reject);
  });
}

function tooLarge(limit: number): MockHttpError {
  return new MockHttpError(413, undefined, `Request body larger than ${limit} bytes.`);
}

/** An empty body is `undefined`; anything else must be JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new MockHttpError(400, undefined, `Request body is not valid JSON: ${detail}`);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function writeJson(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: unknown,
  encode: (body: unknown) => Buffer = (b) => Buffer.from(JSON.stringify(b), 'utf8'),
): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  // Encoded once: Buffer.byteLength plus end(string) would encode twice.
  const bytes = encode(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(bytes.length),
  });
  res.end(bytes);
}

/**
 * A JSON answer written on a raw socket, which then closes: for requests
 * that never become an IncomingMessage (unreadable HTTP, a refused upgrade).
 */
export function endRaw(
  socket: Duplex,
  status: number,
  headers: Record<string, string>,
  body: string,
): void {
  const all: Record<string, string> = {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const head = Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${head}\r\n${body}`);
}
