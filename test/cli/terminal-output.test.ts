import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/runtime/io.js';
import { run } from '../../src/cli/main.js';
import { ProgressLine, createReporter } from '../../src/cli/runtime/reporter.js';
import { fitWidths } from '../../src/output/formats/table.js';
import stringWidth from 'string-width';
import { terminalSafe } from '../../src/output/text.js';
import { isolatedConfigHome, runCli } from '../helpers/cli.js';

/** stdout and stderr into one log, both terminals: what the user's screen receives, in order. */
async function screen(argv: string[], columns = 100): Promise<{ code: number; log: string }> {
  const chunks: string[] = [];
  const tty = (isTTY: boolean) => {
    const s = Object.assign(new PassThrough(), { isTTY, columns });
    s.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    return s;
  };
  const io: CliIO = {
    stdout: tty(true),
    stderr: tty(true),
    stdin: Object.assign(Readable.from([]), { isTTY: true }),
    env: { XDG_CONFIG_HOME: isolatedConfigHome() },
    now: () => new Date(),
  };
  const code = await run(argv, io);
  return { code, log: chunks.join('') };
}

describe('tables', () => {
  it('size columns by content: the source is not cut while the title has room to spare', async () => {
    const r = await runCli(['search', '--mock', '--limit', '5', '-f', 'table'], { tty: 200 });
    expect(r.code).toBe(0);
    const [head, ...rows] = r.stdout.trimEnd().split('\n');
    expect(head).toMatch(/^published\s+source\s+lang\s+title\s+id$/);
    expect(rows).toHaveLength(5);
    // Borderless, nothing cut, no padding beyond the content.
    expect(r.stdout).not.toMatch(/[│┌─…]/);
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(200);
    expect(Math.max(...rows.map((l) => stringWidth(l)))).toBeLessThan(150);
  });

  it('COLUMNS is honoured in a pipe, and the longest text column is cut first', async () => {
    const r = await runCli(['search', '--mock', '--limit', '5', '-f', 'table'], {
      env: { COLUMNS: '70' },
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(70);
    // The title was cut; the ids (never cut) are whole.
    expect(r.stdout).toContain('…');
    for (const line of lines.slice(1)) expect(line).toMatch(/ \d{9}$/);
  });

  it('a terminal that reports 0 columns (COLUMNS unset or 0) gets the 80-column layout', async () => {
    for (const env of [{}, { COLUMNS: '0' }]) {
      const r = await runCli(['search', '--mock', '--limit', '3'], { tty: 0, env });
      expect(r.code).toBe(0);
      const [head, ...rows] = r.stdout.trimEnd().split('\n');
      expect(head).toMatch(/^published\s+source\s+lang\s+title\s+id$/);
      expect(rows).toHaveLength(3);
      for (const line of rows) expect(stringWidth(line)).toBeLessThanOrEqual(80);
      expect(Math.max(...rows.map((l) => stringWidth(l)))).toBeGreaterThan(70);
    }
  });

  it('generic records get columns as wide as their content (codes are not cut at 14)', async () => {
    const r = await runCli(['event-types', '--mock', '-f', 'table'], { tty: 200 });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('…');
    expect(r.stdout).toContain('contract-award');
  });

  it('NEWS_TABLE_STYLE=box draws lines around the same layout', async () => {
    const r = await runCli(['people', '--mock', '--limit', '2', '-f', 'table'], {
      tty: 80,
      env: { NEWS_TABLE_STYLE: 'box' },
    });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^┌─+┬/);
    expect(lines.at(-1)).toMatch(/^└─+┴/);
    expect(new Set(lines.map((l) => stringWidth(l))).size).toBe(1);
  });

  it('fitWidths cuts the widest columns first and keeps the minimums', () => {
    expect(fitWidths([10, 50, 30], [10, 8, 8], 90)).toEqual([10, 50, 30]);
    expect(fitWidths([10, 50, 30], [10, 8, 8], 60)).toEqual([10, 25, 25]);
    expect(fitWidths([10, 50, 20], [10, 8, 8], 60)).toEqual([10, 30, 20]);
    expect(fitWidths([16, 100], [16, 8], 20)).toEqual([16, 8]);
  });
});

describe('the progress line', () => {
  it('is cleared before the table and the notes, and counts records and points', async () => {
    const { code, log } = await screen([
      'search',
      '--mock',
      '--limit',
      '250',
      '--per-page',
      '50',
      '-f',
      'table',
    ]);
    expect(code).toBe(0);
    // Every drawn progress line is cleared (\r ESC[2K) before anything else is written.
    const draws = [...log.matchAll(/\r\x1b\[2K(\d+ pages? · [^\r\n]+)/g)];
    expect(draws.length).toBeGreaterThan(0);
    for (const d of draws) {
      const after = log.slice(d.index! + d[0].length);
      expect(after.startsWith('\r\x1b[2K'), JSON.stringify(after.slice(0, 40))).toBe(true);
    }
    expect(draws[0]![1]).toMatch(/^1 page · 50 of 250 records · \d+ points? · [\d.]+ s$/);
  });

  it('a note written while it is drawn clears it first and draws it again', () => {
    let out = '';
    const stderr = Object.assign(new PassThrough(), { isTTY: true });
    stderr.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    const progress = new ProgressLine(stderr, true);
    const report = createReporter(stderr, false, false);
    progress.update(1);
    progress.show();
    report.notice('hello');
    progress.done();
    stderr.end();
    return new Promise<void>((resolve) =>
      stderr.on('end', () => {
        expect(out).toMatch(
          /^\r\x1b\[2K1 page · 1 record · [\d.]+ s\r\x1b\[2Knote: hello\n\r\x1b\[2K1 page/,
        );
        resolve();
      }),
    );
  });
});

describe('third-party text on a terminal', () => {
  it('bidi embeddings, overrides and isolates are removed, and whole escape sequences', () => {
    const evil = 'safe\u202Etxt.exe\u202C \u2066isolate\u2069 \u202Aa\u202Bb\u202Dc \x1b[31mred';
    expect(terminalSafe(evil)).toBe('safetxt.exe isolate abc red');
  });
});

describe('facets', () => {
  it('--facets-only exports the facets as records in any format', async () => {
    const r = await runCli([
      'search',
      '--mock',
      '--facet',
      '1',
      '--facet-field',
      'source.bias',
      '--facets-only',
      '-f',
      'jsonl',
    ]);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.length).toBe(3);
    expect(rows.map((x) => x.value).sort()).toEqual(['center', 'left', 'right']);
    for (const row of rows) {
      expect(row.facet).toBe('source.bias');
      expect(row.count).toBeGreaterThan(0);
    }
  });

  it('on a terminal the facets follow the records as a table', async () => {
    const r = await runCli(
      ['search', '--mock', '--limit', '2', '--facet', '1', '--facet-field', 'language.id'],
      { tty: 100 },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/facet language\.id[\s\S]*English\s+1\s+[\d,]+/);
  });

  it('in a pipe a note says how to get them', async () => {
    const r = await runCli([
      'search',
      '--mock',
      '--limit',
      '1',
      '--facet',
      '1',
      '--facet-field',
      'source.bias',
    ]);
    expect(r.stderr).toContain(
      'note: the response has facets (source.bias): --facets-only exports them',
    );
  });

  it('highlights travel in each record', async () => {
    const r = await runCli([
      'search',
      '--mock',
      '--title',
      'trump',
      '--hl',
      '1',
      '--limit',
      '2',
      '-f',
      'jsonl',
    ]);
    const records = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.some((x) => JSON.stringify(x.highlight ?? {}).includes('<em>'))).toBe(true);
  });
});

describe('--raw', () => {
  it.each([
    [['--limit', '5'], '--limit'],
    [['-f', 'csv'], '-f csv'],
    [['--fields', 'id'], '--fields'],
    [['-o', 'x.json'], '-o'],
  ])('refuses %j rather than ignoring it', async (extra, named) => {
    const r = await runCli(['search', '--mock', '--raw', ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot apply ${named}`);
  });

  it('with --all prints one body per page', async () => {
    const r = await runCli([
      'search',
      '--mock',
      '--raw',
      '--all',
      '--per-page',
      '250',
      '--title',
      'trump',
    ]);
    expect(r.code).toBe(0);
    const bodies = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(bodies.length).toBeGreaterThanOrEqual(1);
    expect(bodies.at(-1).has_next_pages).toBe(false);
  });
});

describe('notes and messages', () => {
  it('a per_page capped by the plan is noted once', async () => {
    const r = await runCli([
      'search',
      '--mock',
      '--api-key',
      'api_live_mock_free',
      '--limit',
      '30',
      '-f',
      'jsonl',
      '--fields',
      'id',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(30);
    expect(r.stderr.match(/the plan caps per_page at 10 \(asked for 30\)/g)).toHaveLength(1);
  });

  it('article names the ids not found: exit 0 when some were, 1 when none', async () => {
    const some = await runCli(['article', '500007198', '1', '--mock', '-f', 'jsonl']);
    expect(some.code).toBe(0);
    expect(some.stdout.trim().split('\n')).toHaveLength(1);
    expect(some.stderr).toContain('warning: not found: article id 1');
    const none = await runCli(['article', '1', '2', '--mock', '-f', 'jsonl']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('error: no article found with ids 1, 2');
  });

  it('"1 record", not "1 records"', async () => {
    const dir = isolatedConfigHome();
    const r = await runCli(['search', '--mock', '--limit', '1', '-o', `${dir}/one.csv`]);
    expect(r.stderr).toMatch(/wrote 1 record to /);
  });

  it('a --query over 4,000 characters carries ER0711', async () => {
    const r = await runCli(['search', '--mock', '--query', 'ab '.repeat(1400)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--query must be at most 4000 characters \[ER0711\]/);
  });
});
