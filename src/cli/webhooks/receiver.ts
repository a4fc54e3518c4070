/**
 * The local receiver behind `news webhooks listen`: a node:http server that
 * takes deliveries on one path and, for each, in this order:
 *   1. body size limit (413) — read no more than the limit;
 *   2. signature and timestamp window (401; nothing written, nothing forwarded);
 *   3. the payload parsed with zod (400);
 *   4. a delivery id already accepted → 200, not written or forwarded again;
 *      one still being handled → 409, so the sender retries it later;
 *   5. `--forward-to`: the delivery passed on unchanged, headers included; the
 *      local app's status (and body) is the answer;
 *   6. on a 2xx answer only: the id is remembered and the articles written,
 *      before the sender gets its answer. A delivery the local app refused is
 *      not written, so its retry is written once, when it succeeds.
 * One log line per delivery goes to `log`.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_HEADERS, verifyWebhook } from '../../params/webhook-signature.js';
import { ARTICLES_NEW, type DeliveryPayload, parseDelivery } from './payload.js';

/** 100 full articles are about 1 MB; anything much larger is not a delivery. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Delivery ids remembered for de-duplication (oldest forgotten first). */
export const DEFAULT_SEEN_IDS = 10_000;
/** The sender waits 30 s; waiting longer for the local app is pointless. */
const FORWARD_TIMEOUT_MS = 30_000;
/** Headers that describe one connection, not the delivery: not forwarded as they were. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'proxy-connection',
  'content-length',
]);

export interface AcceptedDelivery {
  deliveryId: string;
  webhookId: string;
  payload: DeliveryPayload;
  /** With `rawArticles`: each article's JSON bytes as received (payload.articles is then empty). */
  raw: Uint8Array[] | undefined;
}

export interface ReceiverOptions {
  secret: string;
  host: string;
  port: number;
  /** The one path deliveries are taken on, e.g. `/` or `/webhooks`. */
  path: string;
  toleranceSeconds: number;
  forwardTo?: string | undefined;
  maxBodyBytes?: number;
  seenIds?: number;
  /** Keep articles as their raw JSON bytes (jsonl output) instead of decoding them. */
  rawArticles?: boolean;
  /** Writes an accepted delivery's articles; the sender's answer waits for it. */
  onAccepted(delivery: AcceptedDelivery): Promise<void>;
  /** One line per delivery (and per refused request). */
  log(line: string): void;
  now?: () => number;
}

export interface ReceiverHandle {
  url: string;
  /** Deliveries accepted (2xx) so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

/** An insertion-ordered set that forgets its oldest entries beyond `limit`. */
export class BoundedSet {
  private readonly items = new Set<string>();
  constructor(private readonly limit: number) {}
  has(item: string): boolean {
    return this.items.has(item);
  }
  add(item: string): void {
    this.items.add(item);
    if (this.items.size > this.limit) {
      const oldest = this.items.values().next().value;
      if (oldest !== undefined) this.items.delete(oldest);
    }
  }
  get size(): number {
    return this.items.size;
  }
}

interface Answer {
  status: number;
  body: string;
  contentType: string;
}

const json = (status: number, body: object): Answer => ({
  status,
  body: JSON.stringify(body),
  contentType: 'application/json',
});

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function startWebhookReceiver(options: ReceiverOptions): Promise<ReceiverHandle> {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const seen = new BoundedSet(options.seenIds ?? DEFAULT_SEEN_IDS);
  const inProgress = new Set<string>();
  const now = options.now ?? Date.now;
  const forward = options.forwardTo === undefined ? undefined : new URL(options.forwardTo);
  let accepted = 0;

  const handle = async (req: IncomingMessage): Promise<Answer> => {
    const path = new URL(req.url ?? '/', 'http://receiver').pathname;
    if (path !== options.path)
      return json(404, { error: `deliveries are taken on ${options.path}` });
    if (req.method !== 'POST') return json(405, { error: 'deliveries are POST requests' });

    const body = await readLimited(req, maxBody);
    if (body === undefined) {
      options.log(`413 body larger than ${maxBody} bytes; refused`);
      return json(413, { error: `body larger than ${maxBody} bytes` });
    }
    const deliveryId = header(req, WEBHOOK_HEADERS.deliveryId) ?? '';
    const webhookId = header(req, WEBHOOK_HEADERS.id) ?? '';
    const label = `delivery ${deliveryId || '(no id)'}`;

    const check = verifyWebhook({
      secret: options.secret,
      timestamp: header(req, WEBHOOK_HEADERS.timestamp),
      signature: header(req, WEBHOOK_HEADERS.signature),
      body,
      toleranceSeconds: options.toleranceSeconds,
      nowMs: now(),
    });
    if (!check.ok) {
      options.log(`401 ${label}: ${check.message}; nothing written`);
      return json(401, { error: check.message });
    }
    const parsed = parseDelivery(body, options.rawArticles === true);
    if (!parsed.ok) {
      options.log(`400 ${label}: ${parsed.message}; nothing written`);
      return json(400, { error: parsed.message });
    }
    const { payload } = parsed;
    if (deliveryId === '') {
      options.log('400 delivery without X-Webhook-Delivery-Id; nothing written');
      return json(400, { error: 'X-Webhook-Delivery-Id is missing' });
    }
    if (webhookId !== '' && webhookId !== String(payload.webhook_id)) {
      options.log(`400 ${label}: X-Webhook-Id ${webhookId} ≠ webhook_id ${payload.webhook_id}`);
      return json(400, { error: 'X-Webhook-Id does not match webhook_id in the body' });
    }
    if (seen.has(deliveryId)) {
      options.log(`200 ${label}: already accepted (a retry); not written again`);
      return json(200, { status: 'ok', duplicate: true });
    }
    if (inProgress.has(deliveryId)) {
      options.log(`409 ${label}: the same delivery is being handled; retry later`);
      return json(409, { error: 'this delivery is being handled; retry later' });
    }
    inProgress.add(deliveryId);
    try {
      const articles = parsed.articles;
      const what =
        payload.event === ARTICLES_NEW
          ? `webhook ${payload.webhook_id}, ${articles} article${articles === 1 ? '' : 's'}`
          : `webhook ${payload.webhook_id}, event ${payload.event} (not written)`;
      let answer: Answer = json(200, { status: 'ok', written: articles });
      let forwarded = '';
      if (forward !== undefined) {
        const started = performance.now();
        const result = await passOn(forward, req, body);
        const ms = Math.round(performance.now() - started);
        if ('error' in result) {
          options.log(`502 ${label}: ${what}; forward to ${forward.href} failed: ${result.error}`);
          return json(502, { error: `forward failed: ${result.error}` });
        }
        answer = result;
        forwarded = `; ${forward.href} answered ${result.status} in ${ms} ms`;
      }
      if (answer.status < 200 || answer.status >= 300) {
        options.log(`${answer.status} ${label}: ${what}${forwarded}; not written`);
        return answer;
      }
      seen.add(deliveryId);
      accepted += 1;
      if (payload.event === ARTICLES_NEW) {
        await options.onAccepted({
          deliveryId,
          webhookId: String(payload.webhook_id),
          payload,
          raw: parsed.raw,
        });
      }
      options.log(`${answer.status} ${label}: ${what}${forwarded}`);
      return answer;
    } finally {
      inProgress.delete(deliveryId);
    }
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    handle(req)
      .then((answer) => {
        if (res.destroyed) return;
        res.writeHead(answer.status, {
          'content-type': answer.contentType,
          'content-length': String(Buffer.byteLength(answer.body)),
          // Stopping: no keep-alive, so close() does not wait on an idle socket.
          ...(closing === undefined ? {} : { connection: 'close' }),
        });
        res.end(answer.body);
      })
      .catch((error: unknown) => {
        options.log(
          `500 receiver error: ${error instanceof Error ? error.message : String(error)}`,
        );
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'receiver error' }));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}${options.path}`,
    get accepted() {
      return accepted;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Anything still open after a moment (a sender holding a socket) is cut.
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      });
      return closing;
    },
  };
}

/** The body, or undefined when it is over the limit (the rest is drained, not kept). */
function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  return new Promise((resolve, reject) => {
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** POSTs the delivery to the local app unchanged; its status and body come back. */
function passOn(
  target: URL,
  req: IncomingMessage,
  body: Buffer,
): Promise<Answer | { error: string }> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  headers['content-length'] = String(body.length);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const out = send(target, { method: 'POST', headers, timeout: FORWARD_TIMEOUT_MS });
    out.on('timeout', () => out.destroy(new Error('no answer within 30 s')));
    out.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
    out.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= 64 * 1024) chunks.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 502,
          body: Buffer.concat(chunks).toString('utf8'),
          contentType: res.headers['content-type'] ?? 'text/plain',
        }),
      );
      res.on('error', (error) => resolve({ error: error.message }));
    });
    out.end(body);
  });
}
