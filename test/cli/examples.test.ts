/**
 * Every example that `--help` shows runs against the mock and succeeds. Plain
 * command lines run in-process (with --mock); lines with shell syntax (pipes,
 * redirections, process substitution) run in bash with `news` on PATH as the
 * built binary and NEWS_API_MOCK=1. All in a scratch directory holding the
 * files the examples read.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsProgram } from '../../src/cli/help-docs.js';
import { examplesOf } from '../../src/cli/program.js';
import { runCli } from '../helpers/cli.js';
import { BIN } from '../helpers/spawn.js';

const run = promisify(execFile);

function allExamples(): { where: string; line: string }[] {
  const out: { where: string; line: string }[] = [];
  const walk = (command: Command, path: string) => {
    for (const line of examplesOf(command)) out.push({ where: path || 'news', line });
    for (const sub of command.commands) walk(sub, `${path} ${sub.name()}`.trim());
  };
  walk(docsProgram(), '');
  return out;
}

/** Splits a plain command line the way a shell would (quotes, no expansions). */
function words(line: string): string[] | undefined {
  if (/[|<>$`;&]/.test(line.replace(/'[^']*'|"[^"]*"/g, ''))) return undefined;
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

const examples = allExamples();
let dir = '';
let cwd = '';
const env = () => ({
  XDG_CONFIG_HOME: join(dir, 'config'),
  XDG_CACHE_HOME: join(dir, 'cache'),
  HOME: dir,
  NEWS_API_MOCK: '1',
});

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
  // Examples that name a profile find it.
  await runCli(['config', 'set', 'format', 'json', '--profile', 'work'], { env: env() });
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

  it.each(examples.map((e) => [e.where, e.line]))('%s: %s', async (_where, line) => {
    const argv = words(line);
    if (argv !== undefined) {
      expect(argv[0]).toBe('news');
      // A server runs until interrupted: stop it once it is up; a clean stop exits 0.
      const serve = argv[1] === 'mock' && argv[2] === 'serve';
      const r = await runCli([...argv.slice(1), ...(serve ? [] : ['--mock'])], {
        env: env(),
        ...(serve ? { signal: AbortSignal.timeout(2000) } : {}),
      });
      if (serve) expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/m);
      expect(r.code, r.stderr).toBe(0);
      return;
    }
    const { stderr } = await run('bash', ['-c', `set -eo pipefail; ${line}`], {
      cwd: dir,
      env: { ...process.env, ...env(), PATH: `${dir}:${process.env['PATH'] ?? ''}` },
    }).catch((error: { stderr?: string; code?: number }) => {
      throw new Error(`${line}\nexit ${error.code}: ${error.stderr}`);
    });
    expect(stderr).not.toMatch(/^error:/m);
  });
});
