/** On a terminal, an upload to a store shows the bytes sent on the progress line; a pipe gets none of it. */
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/runtime/io.js';
import { run } from '../../src/cli/main.js';
import { ProgressLine, createReporter } from '../../src/cli/runtime/reporter.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { isolatedConfigHome } from '../helpers/cli.js';
import { type S3Store, startStore } from './store.js';

const NOW = new Date('2026-11-20T12:00:00Z');
let mock: MockServer;
let store: S3Store;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, quiet: true, now: NOW });
  ({ store } = await startStore());
});
afterAll(async () => {
  await mock.close();
  await store.close();
});

async function stderrOf(argv: string[], isTTY: boolean): Promise<{ code: number; err: string }> {
  let err = '';
  const stderr = Object.assign(new PassThrough(), { isTTY, columns: 100 });
  stderr.on('data', (c: Buffer) => {
    err += c.toString('utf8');
  });
  const io: CliIO = {
    stdout: Object.assign(new PassThrough(), { isTTY: false }),
    stderr,
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    env: { XDG_CONFIG_HOME: isolatedConfigHome(), ...store.env },
    now: () => NOW,
  };
  return { code: await run(argv, io), err };
}

describe('upload progress', () => {
  const argv = (key: string) => [
    'search',
    '--base-url',
    mock.url,
    '--api-key',
    'api_live_mock_pro',
    '--published-at-start',
    '2026-11-15',
    '--all',
    '-o',
    `s3://news-test/progress/${key}`,
  ];

  it('a terminal sees "MB uploaded", cleared at the end', async () => {
    const { code, err } = await stderrOf(argv('tty.jsonl'), true);
    expect(code, err).toBe(0);
    expect(err).toMatch(/\r\x1b\[2K.*\d+\.\d MB uploaded/);
    expect(err).toMatch(/\r\x1b\[2K$/);
  });

  it('a terminal sees the files of a data set published after the upload, cleared at the end', async () => {
    const { code, err } = await stderrOf(
      [
        ...argv('lake/'),
        '--state',
        's3://news-test/progress/lake.state.json',
        '-f',
        'jsonl',
        '--partition-by',
        'day',
      ].filter((a) => a !== '--all'),
      true,
    );
    expect(code, err).toBe(0);
    const drawn = err.split('\r\x1b[2K').filter((l) => / published · /.test(l));
    expect(drawn.length).toBeGreaterThan(1);
    const total = /of (\d+) files published/.exec(drawn[0]!)![1];
    expect(drawn[0]).toMatch(
      new RegExp(`MB uploaded · 1 of ${total} files published · [\\d.]+ s$`),
    );
    expect(drawn.at(-1)).toMatch(new RegExp(` ${total} of ${total} files published · `));
    expect(err).toMatch(/\r\x1b\[2Knote: wrote \d+ records into/);
  });

  it('a pipe sees no progress at all', async () => {
    const { code, err } = await stderrOf(argv('pipe.jsonl'), false);
    expect(code, err).toBe(0);
    expect(err).not.toMatch(/uploaded|\x1b/);
  });

  it('upload progress arriving after done() is not drawn again below the last note', () => {
    let out = '';
    const terminal = Object.assign(new PassThrough(), {
      isTTY: true,
      write: (chunk: string) => {
        out += chunk;
        return true;
      },
    });
    const report = createReporter(terminal, false, false);
    const line = new ProgressLine(terminal, true);
    line.update(10);
    line.uploaded(1_000_000);
    expect(out).toMatch(/1\.0 MB uploaded/);
    line.done();
    report.notice('wrote 10 records to s3://news-test/x.jsonl');
    const after = out.length;
    // The SDK's last httpUploadProgress events come once the export is done.
    line.uploaded(2_000_000);
    line.uploaded(3_000_000);
    expect(out.slice(after)).toBe('');
    expect(out.endsWith('note: wrote 10 records to s3://news-test/x.jsonl\n')).toBe(true);
  });

  it('the line reads pages, records, bytes and files published', () => {
    const line = new ProgressLine(Object.assign(new PassThrough(), { isTTY: true }), true);
    line.update(10);
    line.uploaded(12_345_678);
    expect(line.text()).toMatch(/^1 page · 10 records · 12\.3 MB uploaded · [\d.]+ s$/);
    line.publishing(3, 27);
    expect(line.text()).toMatch(
      /^1 page · 10 records · 12\.3 MB uploaded · 3 of 27 files published · [\d.]+ s$/,
    );
  });
});
