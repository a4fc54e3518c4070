/**
 * The stdio wire of `news mcp`: JSON-RPC messages, one per line, on stdin and
 * stdout, with the checks the SDK's own stdio transport leaves out, so that a
 * hostile or broken client never goes unanswered and never stops the server:
 *
 * - a line that is not JSON is answered -32700 (Parse error);
 * - a batch (an array), a message without `jsonrpc: "2.0"`, an `id` that is
 *   not a string or a number, a `method` that is not a string, `params` that
 *   is not an object: -32600 (Invalid Request), to the request's id where it
 *   has a usable one, else to id null;
 * - the params of tools/call, prompts/get, resources/read and
 *   completion/complete of the wrong shape: -32602 naming the one that is
 *   wrong (params-check.ts);
 * - a line longer than MAX_LINE_BYTES is skipped up to its end without being
 *   held in memory, answered -32600 to id null, and noted on stderr; the next
 *   line is read as usual.
 *
 * When stdin ends, the requests already read are answered before the
 * transport closes (a script may pipe a few requests in and read the
 * answers); the SDK's transport would abort them.
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { paramsProblem } from './params-check.js';

/** The longest line read: the HTTP transport's own limit on a request body (4 MiB). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

type Id = string | number;
type Note = (message: string) => void;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

function usableId(value: unknown): value is Id {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Why a parsed line is not a JSON-RPC message the server can take, or undefined. */
function problem(message: unknown): string | undefined {
  if (Array.isArray(message)) return 'batches are not supported: send one message per line';
  if (typeof message !== 'object' || message === null) return 'a message is a JSON object';
  const m = message as Record<string, unknown>;
  if (m['jsonrpc'] !== '2.0') return 'jsonrpc must be "2.0"';
  if ('id' in m && !usableId(m['id'])) return 'id must be a string or a number';
  if ('method' in m) {
    if (typeof m['method'] !== 'string') return 'method must be a string';
    const params = m['params'];
    if (
      params !== undefined &&
      (typeof params !== 'object' || params === null || Array.isArray(params))
    ) {
      return 'params must be an object';
    }
    return undefined;
  }
  // A response to a request of the server's (ping, a 2025-era shim request).
  if (usableId(m['id']) && ('result' in m || 'error' in m)) return undefined;
  return 'a message needs a method (or, as a response, an id and a result or error)';
}

export class LineTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  private chunks: Buffer[] = [];
  private length = 0;
  /** Skipping the rest of a line that was too long. */
  private skipping = false;
  private readonly pending = new Set<Id>();
  private ended = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly note: Note,
    private readonly maxLine = MAX_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.once('end', this.onEnd);
    this.stdin.once('close', this.onEnd);
    this.stdin.on('error', this.onEnd);
    if (this.stdin.readableEnded) this.onEnd();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (;;) {
      const newline = data.indexOf(0x0a);
      const part = newline < 0 ? data : data.subarray(0, newline);
      if (!this.skipping) {
        if (this.length + part.length > this.maxLine) {
          this.skipping = true;
          this.chunks = [];
          this.length = 0;
        } else {
          this.chunks.push(part);
          this.length += part.length;
        }
      }
      if (newline < 0) return;
      data = data.subarray(newline + 1);
      if (this.skipping) {
        this.skipping = false;
        this.tooLong();
      } else {
        const line = Buffer.concat(this.chunks).toString('utf8');
        this.chunks = [];
        this.length = 0;
        this.line(line);
      }
    }
  };

  private tooLong(): void {
    const message = `a message longer than ${this.maxLine} bytes was refused unread`;
    this.note(message);
    this.refuse(null, INVALID_REQUEST, `Invalid Request: ${message}`);
  }

  private line(text: string): void {
    if (text.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.refuse(null, PARSE_ERROR, 'Parse error: the line is not JSON');
      return;
    }
    const why = problem(message);
    if (why !== undefined) {
      const m = message as Record<string, unknown> | null;
      const id = m !== null && typeof m === 'object' && usableId(m['id']) ? m['id'] : null;
      // A notification (no id) that is broken cannot be answered; the note says it was dropped.
      if (
        id === null &&
        m !== null &&
        typeof m === 'object' &&
        !Array.isArray(m) &&
        'method' in m &&
        !('id' in m)
      ) {
        this.note(`a notification was dropped: ${why}`);
        return;
      }
      this.refuse(id, INVALID_REQUEST, `Invalid Request: ${why}`);
      return;
    }
    const m = message as JSONRPCMessage & { id?: Id; method?: string; params?: unknown };
    const wrong = m.method === undefined ? undefined : paramsProblem(m.method, m.params);
    if (wrong !== undefined && m.id !== undefined) {
      this.refuse(m.id, INVALID_PARAMS, wrong);
      return;
    }
    if (m.method !== undefined && m.id !== undefined) this.pending.add(m.id);
    if (m.method === 'notifications/cancelled') {
      // A cancelled request gets no answer: nothing to wait for at the end.
      const cancelled = (m as { params?: { requestId?: Id } }).params?.requestId;
      if (cancelled !== undefined) this.pending.delete(cancelled);
    }
    this.onmessage?.(m);
    this.settle();
  }

  private refuse(id: Id | null, code: number, message: string): void {
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private readonly onEnd = (): void => {
    this.ended = true;
    this.settle();
  };

  private settle(): void {
    if (this.ended && this.pending.size === 0) void this.close();
  }

  private write(message: unknown): Promise<void> {
    if (this.closed || this.stdout.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const ok = this.stdout.write(`${JSON.stringify(message)}\n`, () => resolve());
      if (!ok) this.stdout.once('drain', () => resolve());
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(message);
    const m = message as { id?: unknown; method?: unknown };
    if (m.method === undefined && usableId(m.id)) {
      this.pending.delete(m.id);
      this.settle();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdin.off('error', this.onEnd);
    this.onclose?.();
  }
}
