/**
 * Completion in real shells, through the generated scripts in completions/ and
 * the built binary (`news` on PATH is a shim for bin/news.js): bash drives the
 * function with COMP_WORDS/COMP_CWORD, zsh types the line in a pseudo-terminal
 * and presses Tab (shells/zsh-complete.zsh), fish answers `complete -C`.
 * A shell that is not installed is skipped with a message.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { liveTree } from '../../src/cli/completion/in-process.js';
import { unpackTree } from '../../src/cli/completion/tree-file.js';
import { BIN } from '../helpers/spawn.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const script = (file: string) => join(ROOT, 'completions', file);

function has(shell: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
}

const work = mkdtempSync(join(tmpdir(), 'news-shells-'));
writeFileSync(join(work, 'news'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(work, 'news'), 0o755);
writeFileSync(join(work, 'saved-records.jsonl'), '{}\n');
const env = {
  ...process.env,
  PATH: `${work}:${process.env['PATH'] ?? ''}`,
  XDG_CACHE_HOME: join(work, 'cache'),
  XDG_CONFIG_HOME: join(work, 'config'),
};

/** The cases every shell must get right: [typed line, a value that must be offered]. */
const CASES: readonly [string, string][] = [
  ['news sea', 'search'],
  ['news people g', 'get'],
  ['news search --sentiment-overall-p', '--sentiment-overall-polarity'],
  ['news search --sentiment-overall-polarity ', 'negative'],
  ['news search --fields id,ti', 'id,title'],
  ['news completion ', 'fish'],
  ['news convert saved-rec', 'saved-records.jsonl'],
];

describe('the tree the shells complete from', () => {
  it('the built tree (the fast path) equals the tree of the live program', () => {
    const built = unpackTree(
      readFileSync(new URL('../../dist/cli/completion/tree.json', import.meta.url), 'utf8'),
    );
    expect(built, 'dist/cli/completion/tree.json is stale: npm run build').toEqual(
      JSON.parse(JSON.stringify(liveTree())),
    );
  });
});

function skipUnless(shell: string): boolean {
  if (has(shell)) return false;
  console.warn(`${shell} is not installed: its completion tests are skipped`);
  return true;
}

describe('bash completion', () => {
  const bash = (line: string, words: string[]) =>
    execFileSync(
      'bash',
      [
        '-c',
        `source "$1"; shift; COMP_LINE="$1"; COMP_POINT=\${#COMP_LINE}; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _news_completion; printf '%s\\n' "\${COMPREPLY[@]}"`,
        'bash',
        script('news.bash'),
        line,
        ...words,
      ],
      { cwd: work, env, encoding: 'utf8' },
    ).split('\n');

  it.skipIf(skipUnless('bash'))(
    'registers the function and completes commands, flags, values, fields, files',
    () => {
      const registered = execFileSync(
        'bash',
        ['-c', `source "$1"; complete -p news`, 'bash', script('news.bash')],
        { encoding: 'utf8' },
      );
      expect(registered).toContain('-F _news_completion news');
      for (const [line, expected] of CASES) {
        const words = line.split(' ');
        expect(bash(line, words), line).toContain(expected);
      }
      // COMP_WORDBREAKS splits medtop:04 into three words; the reply replaces only the last.
      expect(
        bash('news search --category-id medtop:04', [
          'news',
          'search',
          '--category-id',
          'medtop',
          ':',
          '04',
        ]),
      ).toContain('04000000');
      expect(
        bash('news search --fields=id,ti', ['news', 'search', '--fields', '=', 'id,ti']),
      ).toContain('id,title');
    },
  );
});

describe('zsh completion', () => {
  it.skipIf(skipUnless('zsh'))('completes through compinit in a pseudo-terminal', () => {
    const harness = fileURLToPath(new URL('./shells/zsh-complete.zsh', import.meta.url));
    for (const [line, expected] of [
      ...CASES,
      [
        "news search --query 'title:x AND sentiment.overall.pol",
        'title:x AND sentiment.overall.polarity:',
      ] as const,
    ]) {
      const out = join(work, 'zsh-out');
      rmSync(out, { force: true });
      spawnSync('zsh', ['-f', harness, script('_news'), out, line], {
        cwd: work,
        env,
        timeout: 15_000,
      });
      let got = '';
      try {
        got = readFileSync(out, 'utf8');
      } catch {
        // nothing was added
      }
      expect(got.split('\n'), line).toContain(expected);
    }
  });
});

describe('fish completion', () => {
  it.skipIf(skipUnless('fish'))('answers complete -C with values and descriptions', () => {
    const fish = (line: string) =>
      execFileSync(
        'fish',
        ['-c', `source $argv[1]; complete -C $argv[2]`, script('news.fish'), line],
        {
          cwd: work,
          env,
          encoding: 'utf8',
        },
      ).split('\n');
    for (const [line, expected] of CASES) {
      expect(
        fish(line).map((l) => l.split('\t')[0]),
        line,
      ).toContain(expected);
    }
    expect(fish('news search --sentiment-overall-p')).toContain(
      '--sentiment-overall-polarity\toverall sentiment polarity (positive|negative|neutral)',
    );
  });
});

describe('powershell completion', () => {
  it.skipIf(skipUnless('pwsh'))(
    'registers an argument completer that calls news __complete',
    () => {
      const out = execFileSync(
        'pwsh',
        [
          '-NoProfile',
          '-Command',
          `. ${script('news.ps1')}; (TabExpansion2 -inputScript 'news completion ' -cursorColumn 16).CompletionMatches.CompletionText`,
        ],
        { cwd: work, env, encoding: 'utf8' },
      );
      expect(out).toContain('fish');
    },
  );
});
