/**
 * The in-process mock of `--mock`: an undici dispatcher that answers the
 * client's requests by running them through the mock's pipeline
 * (pipeline.ts), the same one the HTTP server runs, with no socket and no
 * port. The client is the ordinary client: src/cli/runtime/runtime.ts hands it this
 * dispatcher instead of its own (the api layer never imports the mock).
 *
 * What needs a connection is not served here: the SSE stream answers 501
 * (`news stream --mock` and `webhooks listen --mock` start the HTTP server).
 */
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { type MockApp, type MockAppOptions, createMockApp } from './app.js';
import { MockHttpError } from './error-envelope.js';
import { type MockAnswer, handleRequest } from './pipeline.js';

/** The origin the in-process mock answers as: no host, no port, nothing listens there. */
export const IN_PROCESS_ORIGIN = 'http://mock.invalid';

export interface InProcessMock {
  readonly dispatcher: Dispatcher;
  readonly app: MockApp;
  /** The base URL to give the client (any origin reaches the dispatcher). */
  readonly url: string;
  close(): Promise<void>;
}

export async function startInProcessMock(options: MockAppOptions = {}): Promise<InProcessMock> {
  const app = await createMockApp(options, () => IN_PROCESS_ORIGIN);
  const dispatcher = new InProcessDispatcher(app) as unknown as Dispatcher;
  return {
    dispatcher,
    app,
    url: IN_PROCESS_ORIGIN,
    close: async () => {
      await dispatcher.close();
      app.close();
    },
  };
}

type Handler = Dispatcher.DispatchHandler;

/** The reason phrases of the statuses the mock answers (node:http's table would load its HTTP stack). */
const STATUS_TEXTS: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  426: 'Upgrade Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** Error codes the client's network classification knows (src/api/network-errors.ts). */
function networkError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * An undici Dispatcher over `app` without undici: `dispatch` (undici's own
 * entry points call it) and `request` (what the client's transport calls),
 * written here because loading undici's request() and the modules it needs
 * cost about a sixth of a bare `node -e 0` on every `--mock` command.
 */
class InProcessDispatcher extends EventEmitter {
  /** Requests not answered yet: closing ends them, as closing a server ends its sockets. */
  private readonly open = new Set<(reason: Error) => void>();
  private closed = false;

  constructor(private readonly app: MockApp) {
    super();
  }

  dispatch(options: Dispatcher.DispatchOptions, handler: Handler): boolean {
    const reply = replier(handler);
    if (this.closed) {
      reply.error(networkError('the in-process mock is closed', 'UND_ERR_CLOSED'));
      return false;
    }
    const controller = new AbortController();
    let settled = false;
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      this.open.delete(end);
      return true;
    };
    // The client aborting (its deadline, Ctrl-C) or the mock closing.
    const end = (reason: Error): void => {
      if (!finish()) return;
      controller.abort(reason);
      reply.error(reason);
    };
    this.open.add(end);
    reply.start((reason) => end(reason ?? new Error('aborted')));
    if (settled) return true;
    handleRequest(
      this.app,
      {
        method: String(options.method ?? 'GET').toUpperCase(),
        target: options.path,
        headers: headersOf(options.headers),
        readBody: (limit) => bodyText(options.body, limit),
        signal: controller.signal,
      },
      IN_PROCESS_ORIGIN,
    ).then(
      (answer) => {
        if (answer.kind === 'hold' || answer.kind === 'gone' || answer.kind === 'streamed') return;
        if (!finish()) return;
        deliver(reply, answer);
      },
      (error: unknown) => {
        if (finish()) reply.error(error instanceof Error ? error : new Error(String(error)));
      },
    );
    return true;
  }

  /**
   * undici's `request()`: resolves with the status, the headers (names in
   * lower case) and the body once the answer is whole (the mock answers at
   * once); rejects with the network's error, or the signal's reason.
   */
  request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
    return new Promise((resolve, reject) => {
      const { signal } = options;
      let abort: ((reason?: Error) => void) | undefined;
      const onAbort = (): void => abort?.(abortReason(signal));
      const done = (): void => {
        (signal as AbortSignal | undefined)?.removeEventListener('abort', onAbort);
      };
      let status = 0;
      let statusText = '';
      let headers: Record<string, string | string[]> = {};
      const chunks: Buffer[] = [];
      const handler: Handler = {
        onRequestStart: (controller) => {
          abort = (reason) => controller.abort(reason ?? new Error('aborted'));
          if ((signal as AbortSignal | undefined)?.aborted) onAbort();
        },
        onResponseStart: (_controller, code, parsed, text) => {
          status = code;
          statusText = text ?? '';
          headers = lowerCaseNames(parsed);
        },
        onResponseData: (_controller, chunk) => {
          chunks.push(chunk);
        },
        onResponseEnd: () => {
          done();
          resolve({
            statusCode: status,
            statusText,
            headers,
            body: new InProcessBody(Buffer.concat(chunks)),
            trailers: {},
            opaque: null,
            context: {},
          } as unknown as Dispatcher.ResponseData);
        },
        onResponseError: (_controller, error) => {
          done();
          reject(error);
        },
      };
      (signal as AbortSignal | undefined)?.addEventListener('abort', onAbort, { once: true });
      this.dispatch(options as Dispatcher.DispatchOptions, handler);
    });
  }

  close(callback?: () => void): Promise<void> | undefined {
    this.closed = true;
    for (const end of [...this.open])
      end(networkError('the in-process mock closed', 'UND_ERR_CLOSED'));
    if (callback === undefined) return Promise.resolve();
    queueMicrotask(callback);
    return undefined;
  }

  destroy(
    errorOrCallback?: Error | null | (() => void),
    callback?: () => void,
  ): Promise<void> | undefined {
    const done = typeof errorOrCallback === 'function' ? errorOrCallback : callback;
    return this.close(done);
  }
}

/** Why a request was aborted: the signal's reason, as undici gives it. */
function abortReason(signal: Dispatcher.RequestOptions['signal']): Error {
  const reason = (signal as AbortSignal | undefined)?.reason;
  return reason instanceof Error
    ? reason
    : Object.assign(new Error('Request aborted'), { name: 'AbortError', code: 'UND_ERR_ABORTED' });
}

function lowerCaseNames(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  return out;
}

/**
 * The answer's body as undici's BodyReadable offers it to its readers: read
 * by async iteration (the client's transport), or whole with text(),
 * json(), arrayBuffer(); destroy() and dump() drop it.
 */
class InProcessBody {
  private bytes: Buffer | undefined;
  bodyUsed = false;

  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    const bytes = this.take();
    if (bytes.length > 0) yield bytes;
  }

  async text(): Promise<string> {
    return this.take().toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
  }

  async dump(): Promise<void> {
    this.take();
  }

  destroy(): this {
    this.bytes = undefined;
    return this;
  }

  private take(): Buffer {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.bodyUsed = true;
    const bytes = this.bytes ?? Buffer.alloc(0);
    this.bytes = undefined;
    return bytes;
  }
}

function deliver(
  reply: Replier,
  answer: Exclude<MockAnswer, { kind: 'hold' | 'gone' | 'streamed' }>,
): void {
  if (answer.kind === 'reset') {
    reply.error(networkError('the mock reset the connection', 'ECONNRESET'));
    return;
  }
  const raw: Buffer[] = [];
  for (const [name, value] of Object.entries(answer.headers)) {
    raw.push(Buffer.from(name, 'latin1'), Buffer.from(value, 'latin1'));
  }
  reply.headers(answer.status, raw, answer.headers, STATUS_TEXTS[answer.status] ?? '');
  const body = answer.body === undefined ? undefined : Buffer.concat(answer.body);
  if (body !== undefined && body.length > 0) reply.data(body);
  reply.end();
}

/** The handler's callbacks, whichever of undici's two handler interfaces it implements. */
interface Replier {
  start(abort: (reason?: Error) => void): void;
  headers(status: number, raw: Buffer[], parsed: IncomingHttpHeaders, text: string): void;
  data(chunk: Buffer): void;
  end(): void;
  error(error: Error): void;
}

function replier(handler: Handler): Replier {
  if (handler.onRequestStart !== undefined || handler.onResponseStart !== undefined) {
    let abort: (reason?: Error) => void = () => {};
    let aborted = false;
    let reason: Error | null = null;
    const controller = {
      abort: (why?: Error) => {
        aborted = true;
        reason = why ?? null;
        abort(why);
      },
      pause: () => {},
      resume: () => {},
      get aborted() {
        return aborted;
      },
      get paused() {
        return false;
      },
      get reason() {
        return reason;
      },
    };
    return {
      start: (a) => {
        abort = a;
        handler.onRequestStart?.(controller, {});
      },
      headers: (status, _raw, parsed, text) =>
        handler.onResponseStart?.(controller, status, parsed, text),
      data: (chunk) => handler.onResponseData?.(controller, chunk),
      end: () => handler.onResponseEnd?.(controller, {}),
      error: (error) => handler.onResponseError?.(controller, error),
    };
  }
  return {
    start: (abort) => handler.onConnect?.(abort),
    headers: (status, raw, _parsed, text) => handler.onHeaders?.(status, raw, () => {}, text),
    data: (chunk) => handler.onData?.(chunk),
    end: () => handler.onComplete?.([]),
    error: (error) => handler.onError?.(error),
  };
}

/** The request headers as Node gives them to a server: names in lower case, repeats joined. */
function headersOf(headers: Dispatcher.DispatchOptions['headers']): IncomingHttpHeaders {
  const out: Record<string, string> = {};
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
    out[key] = out[key] === undefined ? text : `${out[key]}, ${text}`;
  };
  if (headers === undefined || headers === null) return out;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1]);
  } else if (Symbol.iterator in Object(headers) && !(headers.constructor === Object)) {
    for (const [name, value] of headers as Iterable<[string, unknown]>) add(name, value);
  } else {
    for (const [name, value] of Object.entries(headers)) add(name, value);
  }
  return out;
}

/** The request body as text, refusing more than `limit` bytes as the HTTP server does. */
async function bodyText(body: unknown, limit: number): Promise<string> {
  if (body === undefined || body === null) return '';
  const tooLarge = () =>
    new MockHttpError(413, undefined, `Request body larger than ${limit} bytes.`);
  if (typeof body === 'string') {
    if (Buffer.byteLength(body) > limit) throw tooLarge();
    return body;
  }
  if (body instanceof Uint8Array) {
    if (body.length > limit) throw tooLarge();
    return Buffer.from(body.buffer, body.byteOffset, body.length).toString('utf8');
  }
  if (typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
      size += bytes.length;
      if (size > limit) throw tooLarge();
      chunks.push(bytes);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
  throw new MockHttpError(400, undefined, 'The request body could not be read.');
}
