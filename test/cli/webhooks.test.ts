import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const mock = (...args: string[]) => runCli(['--mock', '-q', 'webhooks', ...args]);

describe('news webhooks list|get|update|pause|resume|delete (against --mock)', () => {
  it('lists the example webhooks in every list format, key never shown whole', async () => {
    const json = await mock('list', '-f', 'json');
    expect(json.code).toBe(0);
    const records = JSON.parse(json.stdout) as { id: number; status: string; api_key: string }[];
    expect(records.map((r) => [r.id, r.status])).toEqual([
      [1, 'active'],
      [2, 'paused'],
    ]);
    expect(json.stdout).not.toContain('api_live_mock_pro');
    expect(json.stdout).not.toContain('secret');

    const csv = await mock('list', '-f', 'csv');
    const lines = csv.stdout.trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^id,/);
    expect(lines[1]).toContain('https://example.com/hooks/news');

    const jsonl = await mock('list', '-f', 'jsonl');
    expect(jsonl.stdout.trim().split('\n')).toHaveLength(2);

    const table = await runCli(['--mock', '-q', 'webhooks', 'list'], { tty: 120 });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('https://example.com/hooks/markets');
    expect(table.stdout).toContain('language.code=en category.id=medtop:04000000');
    expect(table.stdout).toMatch(/^ID +STATUS +FAILS +URL +FILTERS$/m);
    expect(table.stdout).toMatch(
      /^2 +paused +0 +https:\/\/example\.com\/hooks\/markets +title=rate cut$/m,
    );
    // COLUMNS sets the width, as for every table (the filters column takes what is left).
    const narrow = await runCli(['--mock', '-q', 'webhooks', 'list'], {
      tty: 120,
      env: { COLUMNS: '70' },
    });
    expect(narrow.stdout).toMatch(
      /^1 +active +0 +https:\/\/example\.com\/hooks\/news +language\.code=e…$/m,
    );
    for (const line of narrow.stdout.trimEnd().split('\n'))
      expect(line.length).toBeLessThanOrEqual(70);
  });

  it('gets one webhook; a bad id is a usage error before anything is sent', async () => {
    const got = await mock('get', '2', '-f', 'json');
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id: 2, status: 'paused' });
    const missing = await mock('get', '99');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: Webhook 99 not found.*HTTP 404/m);
    const bad = await mock('get', 'abc');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/webhook id must be a positive integer/);
  });

  it('updates url and filters through the parameter table, which checks them first', async () => {
    const r = await mock(
      'update',
      '1',
      '--url',
      'https://example.org/in',
      '--language-code',
      'fr,de',
      '--sentiment-overall-polarity',
      'positive',
      '-f',
      'json',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      id: 1,
      url: 'https://example.org/in',
      filters: { 'language.code': 'fr,de', 'sentiment.overall.polarity': 'positive' },
    });

    const invalid = await mock('update', '1', '--sentiment-overall-score-min', '7');
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/--sentiment-overall-score-min/);
    const tooMany = await mock('update', '1', '--language-code', 'en,fr,de,it');
    expect(tooMany.code).toBe(2);
    const nothing = await mock('update', '1');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/nothing to update/);
    const badUrl = await mock('update', '1', '--url', 'ftp://x');
    expect(badUrl.code).toBe(2);
  });

  it('shows the PATCH it would send with --dry-run, key redacted', async () => {
    const r = await runCli([
      '--mock',
      'webhooks',
      'update',
      '3',
      '--title',
      'rate cut',
      '--dry-run',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PATCH http:\/\/127\.0\.0\.1:<mock-port>\/v1\/webhooks\/3/);
    expect(r.stdout).toContain('"filters"');
    expect(r.stdout).not.toContain('api_live_mock_pro');
  });

  it('pauses and resumes', async () => {
    const paused = await mock('pause', '1', '-f', 'json');
    expect(JSON.parse(paused.stdout)).toMatchObject({ id: 1, status: 'paused' });
    const resumed = await mock('resume', '2', '-f', 'json');
    expect(JSON.parse(resumed.stdout)).toMatchObject({ id: 2, status: 'active' });
  });

  it('a key without webhooks:write gets exit 3 and the scope named', async () => {
    for (const args of [
      ['pause', '1'],
      ['delete', '1', '--yes'],
      ['update', '1', '--url', 'https://x.example'],
    ]) {
      const r = await runCli([
        '--mock',
        '--api-key',
        'api_live_mock_readonly',
        'webhooks',
        ...args,
      ]);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^error: .*webhooks:write.*HTTP 403/m);
      expect(r.stderr).toMatch(/^hint: this call needs the webhooks:write scope/m);
    }
    const read = await runCli([
      '--mock',
      '--api-key',
      'api_live_mock_readonly',
      'webhooks',
      'list',
      '-f',
      'json',
    ]);
    expect(read.code).toBe(0);
  });

  it('delete: refuses without a terminal (exit 2, never asks), asks on one, --yes for scripts', async () => {
    const noTty = await mock('delete', '1');
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toMatch(/^error: refusing to delete webhook 1 without confirmation/m);
    expect(noTty.stderr).toMatch(/^hint: pass --yes/m);
    expect(noTty.stderr).not.toContain('Delete webhook');

    const yes = await mock('delete', '1', '--yes', '-f', 'json');
    expect(yes.code).toBe(0);
    expect(JSON.parse(yes.stdout)).toMatchObject({ id: 1, deleted: true });

    const asked = await runCli(['--mock', '-q', 'webhooks', 'delete', '2', '-f', 'json'], {
      stdinTty: true,
      stdin: 'y\n',
    });
    expect(asked.stderr).toContain('Delete webhook 2?');
    expect(asked.code).toBe(0);
    expect(JSON.parse(asked.stdout)).toMatchObject({ id: 2, deleted: true });

    const declined = await runCli(['--mock', '-q', 'webhooks', 'delete', '2'], {
      stdinTty: true,
      stdin: 'n\n',
    });
    expect(declined.code).toBe(1);
    expect(declined.stderr).toMatch(/error: cancelled: webhook 2 was not deleted/);
    expect(declined.stdout).toBe('');
  });
});

describe('news webhooks verify', () => {
  const secret = 'whsec_test_secret';
  const body = '{"event":"articles.new","webhook_id":1,"articles":[]}';
  const sign = (t: string, b = body, s = secret) =>
    `sha256=${createHmac('sha256', s).update(`${t}.${b}`).digest('hex')}`;
  const now = new Date('2026-11-20T12:00:00Z');
  const t = String(Math.floor(now.getTime() / 1000) - 10);
  const dir = mkdtempSync(join(tmpdir(), 'news-verify-'));
  const file = join(dir, 'body.json');
  writeFileSync(file, body);
  const verify = (args: string[], options: Parameters<typeof runCli>[1] = {}) =>
    runCli(['webhooks', 'verify', ...args], { now, ...options });

  it('accepts a valid signature from a file or stdin (exit 0)', async () => {
    const fromFile = await verify([
      '--secret',
      secret,
      '--timestamp',
      t,
      '--signature',
      sign(t),
      file,
    ]);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toBe('valid: signature matches; signed 10 s ago, within 300 s\n');
    const fromStdin = await verify(
      ['--secret', secret, '--timestamp', t, '--signature', sign(t), '-'],
      {
        stdin: body,
      },
    );
    expect(fromStdin.code).toBe(0);
    const fromEnv = await verify(['--timestamp', t, '--signature', sign(t)], {
      stdin: body,
      env: { NEWS_WEBHOOK_SECRET: secret },
    });
    expect(fromEnv.code).toBe(0);
  });

  it('names the failed check in one line (exit 1)', async () => {
    const cases: [string[], string, RegExp][] = [
      [
        ['--secret', secret, '--timestamp', t, '--signature', sign(t)],
        `${body} `,
        /signature mismatch/,
      ],
      [['--secret', 'wrong', '--timestamp', t, '--signature', sign(t)], body, /signature mismatch/],
      [
        ['--secret', secret, '--timestamp', String(Number(t) + 1), '--signature', sign(t)],
        body,
        /signature mismatch/,
      ],
      [
        ['--secret', secret, '--timestamp', t, '--signature', sign(t).slice(0, -2)],
        body,
        /signature malformed/,
      ],
      [
        ['--secret', secret, '--timestamp', t, '--signature', sign(t).slice(7)],
        body,
        /signature malformed/,
      ],
      [
        ['--secret', secret, '--timestamp', 'yesterday', '--signature', sign(t)],
        body,
        /timestamp malformed/,
      ],
    ];
    for (const [args, stdin, message] of cases) {
      const r = await verify(args, { stdin });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });

  it('refuses a stale timestamp unless --tolerance allows it (0 turns the check off)', async () => {
    const old = String(Math.floor(now.getTime() / 1000) - 3600);
    const stale = await verify([
      '--secret',
      secret,
      '--timestamp',
      old,
      '--signature',
      sign(old),
      file,
    ]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(
      /^error: invalid: timestamp too old: signed 3600 s ago, tolerance is 300 s/,
    );
    const wide = await verify([
      '--secret',
      secret,
      '--timestamp',
      old,
      '--signature',
      sign(old),
      '--tolerance',
      '7200',
      file,
    ]);
    expect(wide.code).toBe(0);
    const off = await verify([
      '--secret',
      secret,
      '--timestamp',
      old,
      '--signature',
      sign(old),
      '--tolerance',
      '0',
      file,
    ]);
    expect(off.code).toBe(0);
    const future = String(Math.floor(now.getTime() / 1000) + 900);
    const ahead = await verify([
      '--secret',
      secret,
      '--timestamp',
      future,
      '--signature',
      sign(future),
      file,
    ]);
    expect(ahead.code).toBe(1);
    expect(ahead.stderr).toMatch(/in the future/);
  });

  it('usage errors exit 2: no secret, no signature, bad tolerance, missing file', async () => {
    expect((await verify(['--timestamp', t, '--signature', sign(t), file])).code).toBe(2);
    expect((await verify(['--secret', secret, '--timestamp', t, file])).code).toBe(2);
    expect(
      (
        await verify([
          '--secret',
          secret,
          '--timestamp',
          t,
          '--signature',
          sign(t),
          '--tolerance',
          '-1',
          file,
        ])
      ).code,
    ).toBe(2);
    const missing = await verify([
      '--secret',
      secret,
      '--timestamp',
      t,
      '--signature',
      sign(t),
      join(dir, 'nope'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
    // The secret never appears in what verify prints.
    expect(missing.stderr).not.toContain(secret);
  });
});
