/**
 * `news webhooks listen -o postgres://…`: each delivery is one batch,
 * committed before the receiver answers, so an accepted delivery is in the
 * table; a delivery sent again (the same articles) is merged, not doubled.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/runtime/io.js';
import { isolatedConfigHome } from '../helpers/cli.js';
import { type TestPostgres, startPostgres } from '../helpers/postgres.js';
import { expectedSignature, until } from '../helpers/webhook-receiver.js';

const SECRET = 'whsec_db_test';
let server: TestPostgres;

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => server?.stop());

async function deliver(url: string, articles: object[]): Promise<number> {
  const body = JSON.stringify({
    event: 'articles.new',
    webhook_id: 7,
    delivered_at: new Date().toISOString(),
    articles,
  });
  const t = String(Math.floor(Date.now() / 1000));
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-webhook-signature': expectedSignature(SECRET, t, body),
      'x-webhook-id': '7',
      'x-webhook-delivery-id': `dlv_${randomUUID()}`,
      'x-webhook-timestamp': t,
    },
    body,
  });
  await response.text();
  return response.status;
}

async function rows(url: string): Promise<{ id: number; title: string }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query('SELECT id, title FROM articles ORDER BY id');
    return result.rows.map((r) => ({ id: Number(r.id), title: String(r.title) }));
  } finally {
    await client.end();
  }
}

describe('webhooks listen into PostgreSQL', () => {
  it('an accepted delivery is in the table; a repeated one is merged', async () => {
    const url = await server.createDatabase('hooks');
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
      env: { XDG_CONFIG_HOME: isolatedConfigHome(), HOME: tmpdir() },
      now: () => new Date(),
    };
    const exit = run(['webhooks', 'listen', '--port', '0', '--secret', SECRET, '-o', url], io, {
      signal: controller.signal,
    });
    let ended = false;
    void exit.then(() => {
      ended = true;
    });
    await until(() => out.includes('\n') || ended);
    expect(ended, err).toBe(false);
    const endpoint = out.split('\n')[0]!;
    try {
      expect(
        await deliver(endpoint, [
          { id: 11, title: 'one' },
          { id: 12, title: 'two' },
        ]),
      ).toBe(200);
      // Answered only once committed: the rows are there now.
      expect(await rows(url)).toEqual([
        { id: 11, title: 'one' },
        { id: 12, title: 'two' },
      ]);
      expect(await deliver(endpoint, [{ id: 12, title: 'two, again' }])).toBe(200);
      expect(await rows(url)).toEqual([
        { id: 11, title: 'one' },
        { id: 12, title: 'two, again' },
      ]);
    } finally {
      controller.abort();
    }
    expect(await exit).toBe(0);
    expect(err).not.toContain(server.password);
  }, 60_000);
});
