/**
 * `news stream -o s3://…`: a finite stream (--max-events, --duration) is
 * uploaded whole at the end, like any export to a store; an endless one is
 * refused before connecting. Objects are read back straight from s3rver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { type S3Store, type StoreReader, startStore } from './store.js';

let mock: MockServer;
let store: S3Store;
let reader: StoreReader;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, quiet: true, publishRate: 6000 });
  ({ store, reader } = await startStore());
});
afterAll(async () => {
  await mock.close();
  await store.close();
});

const stream = (...args: string[]) =>
  runCli(['stream', '--base-url', mock.url, '--api-key', 'api_live_mock_pro', ...args], {
    env: store.env,
  });

describe('stream -o s3://…', () => {
  it('--max-events N: uploaded at the end, N records', async () => {
    const url = `s3://${store.bucket}/stream/three.jsonl`;
    const r = await stream('--max-events', '3', '-o', url);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`wrote 3 articles to ${url}`);
    const lines = (await reader.bytes('stream/three.jsonl')).toString('utf8').trimEnd().split('\n');
    expect(lines.map((l) => typeof (JSON.parse(l) as { id: unknown }).id)).toEqual([
      'number',
      'number',
      'number',
    ]);
  }, 30_000);

  it('--duration D, csv: one object with its header', async () => {
    const r = await stream(
      '--duration',
      '500ms',
      '--fields',
      'id,title',
      '-o',
      `s3://${store.bucket}/stream/half-second.csv`,
    );
    expect(r.code, r.stderr).toBe(0);
    const text = (await reader.bytes('stream/half-second.csv')).toString('utf8');
    expect(text.startsWith('id,title\r\n')).toBe(true);
  }, 30_000);

  it('an endless stream to a store is refused before connecting (exit 2)', async () => {
    const r = await stream('-o', `s3://${store.bucket}/stream/endless.jsonl`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: .*an endless stream needs --max-events N or --duration D/);
    expect(await reader.exists('stream/endless.jsonl')).toBe(false);
  });

  it('a bad object name is refused before connecting (exit 2)', async () => {
    const r = await stream(
      '--max-events',
      '1',
      '-f',
      'jsonl',
      '-o',
      `s3://${store.bucket}/stream/`,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('names a folder, not an object');
  });
});
