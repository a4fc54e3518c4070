import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docsProgram, helpTopicsMarkdown, manPage } from '../../src/cli/help/docs.js';
import { wrapExample } from '../../src/cli/help/layout.js';
import { ENVIRONMENT, EXIT_MEANINGS, TOPICS } from '../../src/cli/help/topics.js';
import { ARTICLE_COLUMNS } from '../../src/output/columns.js';
import { runCli } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));

describe('news --help', () => {
  it('fits on one 80×24 screen: grouped commands, then global options, examples', async () => {
    const r = await runCli(['--help'], { tty: 80 });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(widest(r.stdout)).toBeLessThanOrEqual(80);
    const at = (s: string) => r.stdout.indexOf(s);
    for (const group of ['search & count', 'directories', 'account', 'tools'])
      expect(at(group)).toBeGreaterThan(0);
    expect(at('Commands:')).toBeLessThan(at('Global options'));
    expect(at('Global options')).toBeLessThan(at('Examples:'));
    // Every registered command is listed, under one group.
    for (const command of docsProgram().commands)
      expect(r.stdout).toMatch(new RegExp(`\\b${command.name()}\\b`));
  });

  it('news alone prints the same help on stderr and exits 2', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('search & count');
  });
});

describe('search --help', () => {
  it('puts the common flags and examples first, wraps to the terminal, groups the rest', async () => {
    for (const width of [60, 80, 120]) {
      const r = await runCli(['search', '--help'], { tty: width });
      expect(widest(r.stdout), `width ${width}`).toBeLessThanOrEqual(width);
    }
    const r = await runCli(['search', '--help'], { tty: 80 });
    const at = (s: string) => r.stdout.indexOf(s);
    expect(at('Common options:')).toBeGreaterThan(0);
    for (const flag of [
      '--all',
      '--limit',
      '-o, --output',
      '-f, --format',
      '--fields',
      '--dry-run',
    ])
      expect(at(flag), flag).toBeLessThan(at('Examples:'));
    expect(at('Examples:')).toBeLessThan(at('Paging and sorting:'));
    // --resolve sits with the other request options, not alone under "Options:".
    expect(r.stdout).not.toMatch(/^Options:$/m);
    expect(at('--resolve')).toBeGreaterThan(at('Request options:'));
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/--verbose|--help/);
  });

  it('a wrapped example never parts a flag from its value', async () => {
    for (const width of [60, 70, 80, 100]) {
      const r = await runCli(['search', '--help'], { tty: width });
      const lines = r.stdout.split('\n');
      const from = lines.indexOf('Examples:');
      const to = lines.indexOf('', from);
      const shown = lines.slice(from + 1, to);
      for (const [i, line] of shown.entries()) {
        const next = shown[i + 1];
        if (next === undefined || !next.startsWith('      ')) continue;
        // A line ending in a flag is followed by another flag, not by that flag's value.
        if (/ --?[\w-]+$/.test(line)) expect(next, `width ${width}`).toMatch(/^ {6}[-|]/);
      }
    }
    const r = await runCli(['search', '--help'], { tty: 80 });
    expect(r.stdout).toContain('--facets-only -f csv');
  });

  it('wrapExample breaks before flags and pipes, and inside a piece only when it is too long', () => {
    expect(wrapExample('$ news a --x 1 -f csv | jq .id', 18)).toEqual([
      '$ news a --x 1 \\',
      '-f csv | jq .id',
    ]);
    // `--query '…'` is longer than a line: broken before it, never inside its quotes.
    expect(wrapExample("$ news --query 'a very long query text' -f csv", 30)).toEqual([
      '$ news --query \\',
      "'a very long query text' \\",
      '-f csv',
    ]);
  });

  it('every example pastes as it reads: ` \\` ends each wrapped line', async () => {
    const { buildProgram, examplesOf } = await import('../../src/cli/program.js');
    const { COMMANDS } = await import('../../src/cli/registry.js');
    const program = buildProgram(
      COMMANDS,
      async () => undefined,
      () => undefined,
      () => undefined,
    );
    const all: string[] = [];
    const walk = (c: import('commander').Command): void => {
      all.push(...examplesOf(c));
      c.commands.forEach(walk);
    };
    walk(program);
    expect(all.length).toBeGreaterThan(50);
    for (const width of [40, 60, 80]) {
      for (const example of all) {
        const lines = wrapExample(`$ ${example}`, width);
        // What a shell reads: each ` \` and line end removed.
        const pasted = lines.map((l) => l.replace(/ \\$/, '')).join(' ');
        expect(pasted, `${example} at ${width}`).toBe(`$ ${example.replace(/ +/g, ' ')}`);
        for (const line of lines.slice(0, -1)) expect(line).toMatch(/ \\$/);
        // Never inside quotes: every line holds whole quoted strings.
        for (const line of lines) expect((line.match(/'/g) ?? []).length % 2, line).toBe(0);
      }
    }
  });

  it('COLUMNS sets the width in a pipe', async () => {
    const r = await runCli(['search', '--help'], { env: { COLUMNS: '100' } });
    expect(widest(r.stdout)).toBeLessThanOrEqual(100);
    expect(widest(r.stdout)).toBeGreaterThan(80);
  });

  it('subcommand groups list their commands and examples, not the global options', async () => {
    for (const group of ['suggest', 'query', 'config', 'mock']) {
      const r = await runCli([group, '--help'], { tty: 80 });
      expect(r.code).toBe(0);
      expect(r.stdout, group).toContain('Commands:');
      expect(r.stdout, group).toContain('Examples:');
      expect(r.stdout, group).not.toContain('--api-key');
      expect(r.stdout, group).toMatch(/^Usage: news \S+ <command>/);
    }
  });
});

describe('did you mean', () => {
  it('a flag the user abbreviated, a typo in a subcommand, an unknown command', async () => {
    const language = await runCli(['search', '--language', 'en']);
    expect(language.code).toBe(2);
    expect(language.stderr).toContain("error: unknown option '--language'");
    expect(language.stderr).toContain('hint: did you mean --language-code?');
    const gte = await runCli(['people', 'gte', '10001']);
    expect(gte.code).toBe(2);
    expect(gte.stderr).toContain('hint: did you mean get?');
    const command = await runCli(['serach']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("error: unknown command 'serach'");
    expect(command.stderr).toContain('hint: did you mean search?');
    const topic = await runCli(['help', 'exit-code']);
    expect(topic.code).toBe(2);
    expect(topic.stderr).toContain('did you mean exit-codes?');
  });

  it('an unknown command with --help is the mistake, not a request for the parent help', async () => {
    const top = await runCli(['serach', '--help']);
    expect(top.code).toBe(2);
    expect(top.stdout).toBe('');
    expect(top.stderr).toMatch(/^error: unknown command 'serach'\nhint: did you mean search\?/);
    const sub = await runCli(['webhooks', 'lst', '-h']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain("error: unknown command 'lst' for 'news webhooks'");
    // What is a command, or no command at all, still gets its help.
    for (const argv of [['--help'], ['webhooks', '--help'], ['webhooks', 'list', '-h']]) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout, argv.join(' ')).toMatch(/^Usage: news/);
    }
  });
});

describe('news help TOPIC', () => {
  it('help COMMAND is the command help', async () => {
    const a = await runCli(['help', 'people', 'get'], { tty: 80 });
    const b = await runCli(['people', 'get', '--help'], { tty: 80 });
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });

  it('global options after help are taken and ignored, as before it', async () => {
    const b = await runCli(['search', '--help'], { tty: 80 });
    for (const argv of [
      ['help', 'search', '--mock'],
      ['--mock', 'help', 'search'],
      ['help', 'search', '-f', 'json', '--api-key', 'k_live_x'],
    ]) {
      const a = await runCli(argv, { tty: 80 });
      expect(a.code, `${argv.join(' ')}: ${a.stderr}`).toBe(0);
      expect(a.stdout).toBe(b.stdout);
    }
    const topic = await runCli(['help', 'exit-codes', '--quiet']);
    expect(topic.code).toBe(0);
    // An option no command has is still an error, and help's own help does not list the globals.
    const bogus = await runCli(['help', 'search', '--bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/^error: unknown option '--bogus'/);
    expect((await runCli(['help', '--help'])).stdout).not.toContain('--mock');
  });

  it('exit-codes, environment, formats, query, commands', async () => {
    const exit = await runCli(['help', 'exit-codes']);
    for (const [code] of EXIT_MEANINGS)
      expect(exit.stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
    const environment = (await runCli(['help', 'environment'])).stdout;
    for (const key of [
      'api-key',
      'base-url',
      'auth',
      'format',
      'timeout',
      'retries',
      'default_profile',
    ])
      expect(environment).toContain(key);
    const formats = (await runCli(['help', 'formats'])).stdout;
    for (const column of ARTICLE_COLUMNS) expect(formats).toContain(column.name);
    const query = (await runCli(['help', 'query'])).stdout;
    expect(query).toContain('sentiment.overall.polarity');
    expect(query).toContain('4000 characters');
    const commands = (await runCli(['help', 'commands'])).stdout;
    expect(commands).toMatch(/^ {2}people get +one person's profile/m);
  });

  it('names every environment variable the source reads', () => {
    const read = new Set<string>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts'))
          for (const m of readFileSync(path, 'utf8').matchAll(/env\[['"]([A-Z_]+)['"]\]/g))
            read.add(m[1]!);
      }
    };
    walk(join(ROOT, 'src'));
    const documented = ENVIRONMENT.map(([name]) => name).join(' ');
    for (const name of read) expect(documented, name).toContain(name);
  });

  it('the docs are the same text, from one source: HELP-TOPICS.md and the man page', () => {
    const program = docsProgram();
    expect(readFileSync(join(ROOT, 'docs/HELP-TOPICS.md'), 'utf8'), 'npm run docs:cli').toBe(
      helpTopicsMarkdown(program),
    );
    expect(readFileSync(join(ROOT, 'docs/news.1'), 'utf8'), 'npm run docs:cli').toBe(
      manPage(program),
    );
    for (const topic of TOPICS)
      expect(helpTopicsMarkdown(program)).toContain(`## news help ${topic}`);
  });

  it.skipIf(spawnSync('sh', ['-c', 'command -v groff']).status !== 0)(
    'the man page renders without errors',
    () => {
      const r = spawnSync('groff', ['-man', '-Tutf8', '-ww', join(ROOT, 'docs/news.1')], {
        encoding: 'utf8',
      });
      expect(r.status).toBe(0);
      const problems = r.stderr
        .split('\n')
        .filter((l) => l && !/cannot adjust line|can't break line/.test(l));
      expect(problems).toEqual([]);
      // Bold and underline come as overstrikes or SGR sequences: read the plain text.
      const text = r.stdout.replace(/.\x08/g, '').replace(/\x1b\[[0-9;]*m/g, '');
      expect(text).toContain('EXIT STATUS');
      expect(text).toContain('sentiment-overall-polarity');
    },
  );
});
