import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/runtime/io.js';
import { run } from '../../src/cli/main.js';
import { isolatedConfigHome, runCli } from '../helpers/cli.js';
import {
  type Receiver,
  expectedSignature,
  startReceiver,
  until,
} from '../helpers/webhook-receiver.js';

const SECRET = 'whsec_listen_test';

interface Listening {
  url: string;
  stdout(): string;
  stderr(): string;
  /** Records written after the URL line. */
  records(): { id: number; title?: string }[];
  stop(): Promise<number>;
  exit: Promise<number>;
}

const running: Listening[] = [];
const servers: Receiver[] = [];
afterEach(async () => {
  for (const l of running.splice(0)) await l.stop();
  for (const s of servers.splice(0)) await s.close();
});

/** Runs `news webhooks listen …` in-process until stopped; resolves once the URL is printed. */
async function listen(args: string[], env: Record<string, string> = {}): Promise<Listening> {
  const controller = new AbortController();
  const stdout = Object.assign(new PassThrough(), { isTTY: false });
  const stderr = Object.assign(new PassThrough(), { isTTY: false });
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const io: CliIO = {
    stdout,
    stderr,
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    env: { XDG_CONFIG_HOME: isolatedConfigHome(), HOME: tmpdir(), ...env },
    now: () => new Date(),
  };
  const exit = run(['webhooks', 'listen', '--port', '0', ...args], io, {
    signal: controller.signal,
  });
  let ended = false;
  void exit.then(() => {
    ended = true;
  });
  await until(() => out.includes('\n') || ended);
  if (ended) throw new Error(`listen ended early: ${err}`);
  const listening: Listening = {
    url: out.split('\n')[0]!,
    stdout: () => out,
    stderr: () => err,
    records: () =>
      out
        .split('\n')
        .slice(1)
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { id: number }),
    stop: async () => {
      controller.abort();
      return exit;
    },
    exit,
  };
  running.push(listening);
  return listening;
}

interface Sent {
  status: number;
  text: string;
}

/** Signs with node:crypto (not the code under test) and POSTs like the service. */
async function deliver(
  url: string,
  options: {
    articles?: object[];
    deliveryId?: string;
    secret?: string;
    timestamp?: number;
    tamper?: (body: string) => string;
    webhookId?: number;
  } = {},
): Promise<Sent> {
  const webhookId = options.webhookId ?? 7;
  const body = JSON.stringify({
    event: 'articles.new',
    webhook_id: webhookId,
    delivered_at: new Date().toISOString(),
    articles: options.articles ?? [{ id: 1, title: 'one' }],
  });
  const t = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-webhook-signature': expectedSignature(options.secret ?? SECRET, t, body),
      'x-webhook-id': String(webhookId),
      'x-webhook-delivery-id': options.deliveryId ?? `dlv_${randomUUID()}`,
      'x-webhook-timestamp': t,
    },
    body: options.tamper ? options.tamper(body) : body,
  });
  return { status: response.status, text: await response.text() };
}

describe('news webhooks listen', () => {
  it('prints its URL first, then one jsonl record per delivered article, flushed per delivery', async () => {
    const l = await listen(['--secret', SECRET]);
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const first = await deliver(l.url, {
      articles: [
        { id: 1, title: 'a' },
        { id: 2, title: 'b' },
      ],
    });
    expect(first.status).toBe(200);
    // Written before the sender got its answer.
    expect(l.records().map((r) => r.id)).toEqual([1, 2]);
    await deliver(l.url, { articles: [{ id: 3, title: 'c' }] });
    expect(l.records().map((r) => r.id)).toEqual([1, 2, 3]);
    expect(l.stderr()).toMatch(/200 delivery dlv_\S+: webhook 7, 2 articles/);
    expect(await l.stop()).toBe(0);
    expect(l.stderr()).toMatch(/stopped \(interrupted\): 2 deliveries, 3 records written/);
  });

  it('answers 401 and writes nothing for a tampered body, a wrong secret or a stale timestamp', async () => {
    const l = await listen(['--secret', SECRET]);
    const tampered = await deliver(l.url, {
      tamper: (b) => b.replace('"title":"one"', '"title":"evil"'),
    });
    expect(tampered.status).toBe(401);
    expect(tampered.text).toMatch(/signature mismatch/);
    expect((await deliver(l.url, { secret: 'whsec_wrong' })).status).toBe(401);
    const stale = await deliver(l.url, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(401);
    expect(stale.text).toMatch(/too old/);
    const unsigned = await fetch(l.url, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(401);
    expect(l.records()).toEqual([]);
    expect(l.stderr().match(/401 /g)).toHaveLength(4);
  });

  it('writes a pretty-printed (not compact) body through the decoding path, one line per article', async () => {
    const l = await listen(['--secret', SECRET]);
    const body = JSON.stringify(
      { event: 'articles.new', webhook_id: 7, articles: [{ id: 1, title: 'a\nb' }, { id: 2 }] },
      null,
      2,
    );
    const t = String(Math.floor(Date.now() / 1000));
    const response = await fetch(l.url, {
      method: 'POST',
      headers: {
        'x-webhook-signature': expectedSignature(SECRET, t, body),
        'x-webhook-id': '7',
        'x-webhook-delivery-id': 'dlv_pretty',
        'x-webhook-timestamp': t,
      },
      body,
    });
    expect(response.status).toBe(200);
    expect(l.stdout().split('\n').slice(1)).toEqual(['{"id":1,"title":"a\\nb"}', '{"id":2}', '']);
  });

  it('writes a replayed delivery id once (200 both times)', async () => {
    const l = await listen(['--secret', SECRET]);
    const id = 'dlv_replayed';
    expect((await deliver(l.url, { deliveryId: id })).status).toBe(200);
    const again = await deliver(l.url, { deliveryId: id, articles: [{ id: 1, title: 'one' }] });
    expect(again.status).toBe(200);
    expect(again.text).toContain('duplicate');
    expect(l.records()).toHaveLength(1);
    expect(l.stderr()).toMatch(/already accepted \(a retry\); not written again/);
  });

  it('refuses a body over --max-body with 413, and what is not a delivery with 400', async () => {
    const l = await listen(['--secret', SECRET, '--max-body', '2048']);
    const big = await deliver(l.url, { articles: [{ id: 1, title: 'x'.repeat(4000) }] });
    expect(big.status).toBe(413);
    const notDelivery = await deliver(l.url, {
      // Validly signed, but not a delivery payload.
      articles: 'nope' as unknown as object[],
    });
    expect(notDelivery.status).toBe(400);
    expect(l.records()).toEqual([]);
  });

  it('takes deliveries on --path only', async () => {
    const l = await listen(['--secret', SECRET, '--path', '/hooks/news']);
    expect(l.url).toMatch(/\/hooks\/news$/);
    expect((await deliver(l.url.replace('/hooks/news', '/other'))).status).toBe(404);
    expect((await deliver(l.url)).status).toBe(200);
  });

  it('--forward-to passes the delivery on unchanged and answers with the local app’s status', async () => {
    let appStatus = 202;
    const app = await startReceiver(() => appStatus);
    servers.push(app);
    const l = await listen(['--secret', SECRET, '--forward-to', app.url]);
    const sent = await deliver(l.url, {
      deliveryId: 'dlv_fwd1',
      articles: [{ id: 5, title: 'five' }],
    });
    expect(sent.status).toBe(202);
    expect(app.received).toHaveLength(1);
    const got = app.received[0]!;
    expect(got.headers['x-webhook-delivery-id']).toBe('dlv_fwd1');
    const t = got.headers['x-webhook-timestamp'] as string;
    // Unchanged: the local app can verify the original signature itself.
    expect(got.headers['x-webhook-signature']).toBe(expectedSignature(SECRET, t, got.body));
    expect(JSON.parse(got.body)).toMatchObject({ webhook_id: 7, articles: [{ id: 5 }] });
    expect(l.records().map((r) => r.id)).toEqual([5]);
    expect(l.stderr()).toMatch(/answered 202 in \d+ ms/);

    // The app fails: its status goes back, nothing is written; the retry is written once.
    appStatus = 500;
    expect((await deliver(l.url, { deliveryId: 'dlv_fwd2', articles: [{ id: 6 }] })).status).toBe(
      500,
    );
    expect(l.records().map((r) => r.id)).toEqual([5]);
    appStatus = 200;
    expect((await deliver(l.url, { deliveryId: 'dlv_fwd2', articles: [{ id: 6 }] })).status).toBe(
      200,
    );
    expect((await deliver(l.url, { deliveryId: 'dlv_fwd2', articles: [{ id: 6 }] })).status).toBe(
      200,
    );
    expect(l.records().map((r) => r.id)).toEqual([5, 6]);
    expect(app.received).toHaveLength(3);
    // A tampered delivery never reaches the app.
    await deliver(l.url, { tamper: (b) => `${b} ` });
    expect(app.received).toHaveLength(3);
  });

  it('answers 502 when the local app cannot be reached, and writes nothing', async () => {
    const app = await startReceiver();
    const deadUrl = app.url;
    await app.close();
    const l = await listen(['--secret', SECRET, '--forward-to', deadUrl]);
    expect((await deliver(l.url)).status).toBe(502);
    expect(l.records()).toEqual([]);
    expect(l.stderr()).toMatch(/forward to .* failed: ECONNREFUSED/);
  });

  it('writes csv with one header and -o FILE as deliveries arrive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-listen-'));
    const file = join(dir, 'out.csv');
    const l = await listen(['--secret', SECRET, '-o', file, '--fields', 'id,title']);
    await deliver(l.url, { articles: [{ id: 1, title: 'a' }] });
    expect(readFileSync(file, 'utf8')).toBe('id,title\r\n1,a\r\n');
    await deliver(l.url, { articles: [{ id: 2, title: 'b' }] });
    expect(await l.stop()).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('id,title\r\n1,a\r\n2,b\r\n');
  });

  it('prints the URL before the csv header on stdout', async () => {
    const l = await listen(['--secret', SECRET, '-f', 'csv', '--fields', 'id,title']);
    expect(l.stdout()).toBe(`${l.url}\n`);
    await deliver(l.url, { articles: [{ id: 9, title: 'nine' }] });
    expect(l.stdout()).toBe(`${l.url}\nid,title\r\n9,nine\r\n`);
  });

  it('stops after --max-deliveries (exit 0)', async () => {
    const l = await listen(['--secret', SECRET, '--max-deliveries', '2']);
    await deliver(l.url);
    await deliver(l.url);
    expect(await l.exit).toBe(0);
    expect(l.records()).toHaveLength(2);
  });

  it('usage errors (exit 2) before listening', async () => {
    const cases: [string[], RegExp][] = [
      [[], /signing secret is required/],
      [
        ['--secret', SECRET, '-f', 'xlsx'],
        /listen does not write xlsx\nhint: -f takes jsonl, ndjson, csv, tsv/,
      ],
      [['--secret', SECRET, '--language-code', 'en'], /filter flags need --mock/],
      [['--secret', SECRET, '--forward-to', 'nope'], /--forward-to must be an http/],
      [['--secret', SECRET, '--port', '70000'], /--port must be a whole number/],
      [['--secret', SECRET, '--path', 'hook'], /--path must start with \//],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['webhooks', 'listen', '--port', '0', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });

  it('--mock runs the whole loop offline: subscribes itself, filters from the flags', async () => {
    const l = await listen(['--mock', '--publish-rate', '3000', '--language-code', 'en']);
    await until(() => l.records().length >= 5, 20_000);
    const records = l.records() as { id: number; language?: string }[];
    expect(records.every((r) => r.language === 'en')).toBe(true);
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    expect(l.stderr()).toMatch(/mock webhook 1 delivers to http:\/\/127\.0\.0\.1:\d+\//);
    expect(await l.stop()).toBe(0);
  });
});
