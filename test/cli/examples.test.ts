/**
 * Every example that `--help` shows runs against the mock and succeeds. Plain
 * command lines run in-process (with --mock); lines with shell syntax (pipes,
 * redirections, process substitution) run in bash with `news` on PATH as the
 * built binary and NEWS_API_MOCK=1. All in a scratch directory holding the
 * files the examples read, with the variables they name ($SECRET, $T, $SIG)
 * set to a delivery signed here.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { chmodSync, cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsProgram } from '../../src/cli/help/docs.js';
import { examplesOf } from '../../src/cli/program.js';
import { runCli } from '../helpers/cli.js';
import { BIN } from '../helpers/spawn.js';

const run = promisify(execFile);
/** What a server prints once it listens. */
const SERVING = /^http:\/\/127\.0\.0\.1:\d+(\/mcp)?$/m;

function allExamples(): { where: string; line: string }[] {
  const out: { where: string; line: string }[] = [];
  const walk = (command: Command, path: string) => {
    for (const line of examplesOf(command)) out.push({ where: path || 'news', line });
    for (const sub of command.commands) walk(sub, `${path} ${sub.name()}`.trim());
  };
  walk(docsProgram(), '');
  return out;
}

/**
 * Splits a plain command line the way a shell would (quotes, no expansions);
 * undefined when it needs a shell (a `$` still expands inside double quotes).
 */
function words(line: string): string[] | undefined {
  if (/[|<>$`;&]/.test(line.replace(/'[^']*'|"[^"$`]*"/g, ''))) return undefined;
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/**
 * Examples that cannot run here, and why (a substring of the line). Each must
 * still match an example, so the list cannot go stale.
 */
const SKIP: readonly [needle: string, why: string][] = [
  // The id of a stream open right now: the in-process mock of one command has
  // none. test/cli/stream.test.ts closes a live session.
  ['news stream sessions close ss_', 'needs a stream that is open right now'],
  // Forwards to the reader's own app on port 3000 with their own secret.
  // test/cli/webhooks-listen.test.ts covers --forward-to.
  ['--forward-to http://localhost:3000', "needs the reader's own app and webhook secret"],
];

const examples = allExamples();
const runnable = examples.filter((e) => !SKIP.some(([needle]) => e.line.includes(needle)));
let dir = '';
let cwd = '';
let configs = 0;

/** What `webhooks verify` examples check: a delivery body, signed now with SECRET. */
const SECRET = 'whsec_examples_test';
const BODY = `${JSON.stringify({
  event: 'articles.new',
  webhook_id: 1,
  articles: [{ id: 500000002, title: 'Rate cut expected' }],
})}\n`;
/** T and SIG as the delivery headers carry them; signed at each call, so T is always fresh. */
function signed(): { T: string; SIG: string } {
  const t = String(Math.floor(Date.now() / 1000));
  const hex = createHmac('sha256', SECRET).update(`${t}.${BODY}`).digest('hex');
  return { T: t, SIG: `sha256=${hex}` };
}

const env = (configHome = join(dir, 'config')) => ({
  XDG_CONFIG_HOME: configHome,
  XDG_CACHE_HOME: join(dir, 'cache'),
  HOME: dir,
  NEWS_API_MOCK: '1',
  SECRET,
  ...signed(),
});

/**
 * `news config …` examples each start from a copy of the seeded config: in
 * --help order `config unset format` runs before `config get format`, and a
 * `config set format` must not change the format of the examples after it.
 */
function configHomeFor(line: string): string {
  if (!line.startsWith('news config ')) return join(dir, 'config');
  const home = join(dir, `config-${++configs}`);
  cpSync(join(dir, 'config-seed'), home, { recursive: true });
  return home;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'news-examples-'));
  cwd = process.cwd();
  process.chdir(dir);
  writeFileSync(join(dir, 'news'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(dir, 'news'), 0o755);
  // What the convert examples read: records saved by an earlier search.
  const saved = await runCli(['search', '--mock', '--limit', '20', '-f', 'jsonl'], { env: env() });
  writeFileSync(join(dir, 'saved.jsonl'), saved.stdout);
  writeFileSync(join(dir, 'saved.jsonl.gz'), gzipSync(saved.stdout));
  writeFileSync(join(dir, 'body.json'), BODY);
  // Examples that name a profile find it: `work` holds a key of another plan.
  const set = (home: string, ...args: string[]) =>
    runCli(['config', 'set', ...args], { env: env(home) });
  for (const home of [join(dir, 'config'), join(dir, 'config-seed')]) {
    await set(home, 'format', 'json', '--profile', 'work');
    await set(home, 'api-key', 'api_live_mock_basic', '--profile', 'work');
  }
  // What `config get format` and `config unset format` find in the default profile.
  await set(join(dir, 'config-seed'), 'format', 'jsonl');
});

afterAll(() => process.chdir(cwd));

describe('examples in --help', () => {
  it('every command and subcommand shows two or three', () => {
    const program = docsProgram();
    const missing: string[] = [];
    const walk = (command: Command, path: string) => {
      for (const sub of command.commands) {
        // A group without examples of its own shows its subcommands' first ones.
        const own = examplesOf(sub).length;
        const count = own > 0 ? own : Math.min(3, sub.commands.length);
        if ((count < 2 && sub.commands.length !== 1) || count > 3)
          missing.push(`${path} ${sub.name()}: ${count}`);
        walk(sub, `${path} ${sub.name()}`);
      }
    };
    walk(program, 'news');
    expect(missing).toEqual([]);
  });

  it('skips one example per SKIP entry, each still in --help', () => {
    for (const [needle] of SKIP) {
      expect(examples.filter((e) => e.line.includes(needle)).length, needle).toBe(1);
    }
    expect(examples.length - runnable.length).toBe(SKIP.length);
  });

  // Listed as skipped in the report, with the reason.
  it.skip.each(
    SKIP.map(([needle, why]) => [
      examples.find((e) => e.line.includes(needle))?.line ?? needle,
      why,
    ]),
  )('%s (not run: %s)', () => {});

  // At once, up to vitest's maxConcurrency (5): a few examples wait on the
  // clock they show (three deliveries, five events, `--duration 3s`), 20 s of
  // the file's 35 when they ran one after the other. Each config example has
  // a config home of its own, what they read is written before them
  // (beforeAll), and the one file two of them write (rates.csv) each writes whole.
  it.concurrent.for(runnable.map((e) => [e.where, e.line] as const))(
    '%s: %s',
    async ([, line], { expect }) => {
      const argv = words(line);
      const home = configHomeFor(line);
      if (argv !== undefined) {
        expect(argv[0]).toBe('news');
        // A server runs until interrupted: stop it once it is up; a clean stop exits 0.
        // NEWS_API_MOCK=1 (env) is the mock for the commands that send requests.
        // (`news mcp` on stdio ends with its input, empty here.)
        const serve =
          (argv[1] === 'mock' && argv[2] === 'serve') ||
          (argv[1] === 'mcp' && argv.includes('--http'));
        const stop = new AbortController();
        const r = await runCli(argv.slice(1), {
          env: env(home),
          ...(serve
            ? {
                // Stopped as soon as it prints its address, or after 10 s if it never does.
                signal: AbortSignal.any([stop.signal, AbortSignal.timeout(10_000)]),
                onStdout: (text: string) => {
                  if (SERVING.test(text)) stop.abort();
                },
              }
            : {}),
        });
        if (serve) expect(r.stdout).toMatch(SERVING);
        expect(r.code, r.stderr).toBe(0);
        return;
      }
      const { stderr } = await run('bash', ['-c', `set -eo pipefail; ${line}`], {
        cwd: dir,
        env: { ...process.env, ...env(home), PATH: `${dir}:${process.env['PATH'] ?? ''}` },
      }).catch((error: { stderr?: string; code?: number }) => {
        throw new Error(`${line}\nexit ${error.code}: ${error.stderr}`);
      });
      expect(stderr).not.toMatch(/^error:/m);
    },
  );
});
