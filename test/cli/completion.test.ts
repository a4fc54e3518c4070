import { search as searchSpec } from '../../src/cli/commands/search.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GLOBALS, PAGING, globalsOf } from '../../src/cli/settings/global-options.js';
import { liveTree } from '../../src/cli/completion/in-process.js';
import { configPath } from '../../src/cli/user-dirs.js';
import { SHELLS, SHELL_FILES, completionScript } from '../../src/cli/completion/scripts.js';
import type { TreeCommand } from '../../src/cli/completion/types.js';
import { flagName } from '../../src/params/registry.js';
import { SEARCH_PARAMS } from '../../src/params/search-params.js';
import { EVENT_TYPES } from '../../src/params/search-values.js';
import { COMMANDS } from '../../src/cli/registry.js';
import type { CommandSpec } from '../../src/cli/command-spec.js';
import { FORMAT_NAMES, STREAMING_FORMATS } from '../../src/output/formats.js';
import { STREAM_TRANSPORTS } from '../../src/params/stream-params.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const cacheHome = () => scratchDir('news-cache-');

/** `news __complete WORDS…` in-process: the values and the directive. */
async function tab(words: string[], env: Record<string, string> = {}) {
  const r = await runCli(['__complete', ...words], {
    env: { XDG_CACHE_HOME: cacheHome(), ...env },
  });
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  const directive = Number(lines.pop()?.slice(1));
  const values = lines.map((l) => l.split('\t')[0] ?? '');
  return { values, directive, lines };
}

describe('news __complete', () => {
  it('completes commands, subcommands, and says no files for them', async () => {
    const top = await tab(['']);
    expect(top.values).toEqual(
      expect.arrayContaining(['search', 'count', 'people', 'completion', 'help']),
    );
    expect(top.values).not.toContain('__complete');
    expect((await tab(['se'])).values).toEqual(['search']);
    expect((await tab(['people', 'g'])).values).toEqual(['get']);
    expect((await tab(['query', ''])).values).toEqual(['check', 'fields']);
    expect((await tab(['mock', 's'])).values).toEqual(['serve']);
    expect((await tab(['completion', ''])).values).toEqual([...SHELLS]);
    expect(top.directive & 4).toBe(4);
  });

  it('completes the flags of the command at hand with their descriptions, then the global ones', async () => {
    const r = await tab(['search', '--sentiment-overall-p']);
    expect(r.lines).toEqual([
      '--sentiment-overall-polarity\toverall sentiment polarity (positive|negative|neutral)',
    ]);
    const all = await tab(['search', '--']);
    expect(all.values).toContain('--language-code');
    expect(all.values).toContain('--format');
    expect(all.values.indexOf('--language-code')).toBeLessThan(all.values.indexOf('--format'));
    // A flag already given is not offered again; --param is repeatable.
    const again = await tab(['search', '--all', '--param', 'x=1', '--']);
    expect(again.values).not.toContain('--all');
    expect(again.values).toContain('--param');
    expect((await tab(['people', 'get', '--s'])).values).toEqual(['--section']);
  });

  it('completes enum values from the parameter table and option specs', async () => {
    expect((await tab(['search', '--sentiment-overall-polarity', ''])).values).toEqual([
      'positive',
      'negative',
      'neutral',
    ]);
    expect((await tab(['search', '--sort-by', 'rel'])).values).toEqual(['relevance']);
    expect((await tab(['search', '-f', 'js'])).values).toEqual(['json', 'jsonl']);
    expect((await tab(['search', '--auth', ''])).values).toEqual(['header', 'bearer', 'query']);
    expect((await tab(['people', 'get', '7', '--section', 'top-s'])).values).toEqual([
      'top-sources',
    ]);
    expect((await tab(['convert', '--kind', 'p'])).values).toEqual(['person']);
    expect((await tab(['config', 'set', 'ba'])).values).toEqual(['base-url']);
    expect((await tab(['search', '--format=cs'])).values).toEqual(['--format=csv']);
    const events = await tab(['search', '--event-type', '']);
    expect(events.values).toEqual(EVENT_TYPES);
  });

  it('offers what each command takes, from the list its own check reads', async () => {
    expect((await tab(['stream', '--transport', ''])).values).toEqual([...STREAM_TRANSPORTS]);
    // listen writes records as deliveries arrive: the streaming formats, nothing it refuses.
    expect((await tab(['webhooks', 'listen', '-f', ''])).values).toEqual([...STREAMING_FORMATS]);
    expect((await tab(['webhooks', 'listen', '--format', ''])).values).toEqual([
      ...STREAMING_FORMATS,
    ]);
    expect((await tab(['search', '-f', ''])).values).toEqual([...FORMAT_NAMES]);
    // A URL path is not a file on disk.
    expect((await tab(['webhooks', 'listen', '--path', ''])).directive & 4).toBe(4);
    // …and the same lists are what the commands accept.
    for (const value of STREAM_TRANSPORTS) {
      const r = await runCli(['stream', '--transport', value, '--mock', '--dry-run']);
      expect(r.code, r.stderr).toBe(0);
    }
    const bad = await runCli(['stream', '--transport', 'grpc', '--mock', '--dry-run']);
    expect(bad.stderr).toMatch(/^error: --transport must be sse or ws \(got "grpc"\)$/m);
    const help = await runCli(['webhooks', 'listen', '--help']);
    expect(help.stdout).toContain('output format: jsonl|ndjson|csv|tsv');
  });

  it('reads values from declarations only: a list in a description declares nothing', () => {
    const undeclared: string[] = [];
    const walk = (specs: readonly CommandSpec[], path: string): void => {
      for (const spec of specs) {
        const here = `${path} ${spec.name}`;
        for (const o of spec.options ?? []) {
          if (
            /[<[]/.test(o.flags) &&
            /\b[a-z][\w.-]*\|[a-z][\w.-]*/.test(o.description) &&
            !o.choices
          )
            undeclared.push(`${here} ${o.flags}`);
        }
        for (const a of spec.args ?? []) {
          if (/^[a-z][\w.-]*(\|[a-z][\w.-]*)+$/.test(a.description) && !a.choices)
            undeclared.push(`${here} <${a.name}>`);
        }
        walk(spec.subcommands ?? [], here);
      }
    };
    walk(COMMANDS, 'news');
    expect(undeclared).toEqual([]);
  });

  it('completes lists after the last comma, without the values already given', async () => {
    const fields = await tab(['search', '--fields', 'id,ti']);
    expect(fields.values).toEqual(['id,title']);
    expect(fields.directive & 2).toBe(2);
    const next = await tab(['search', '--fields', 'id,title,']);
    expect(next.values).not.toContain('id,title,id');
    expect(next.values).toContain('id,title,source.domain');
    expect((await tab(['search', '--language-code', 'en,f'])).values).toContain('en,fr');
    expect((await tab(['search', '--sentiment-overall-polarity', 'po'])).values).toEqual([
      'positive',
    ]);
  });

  it('completes fixed ids from the specification: languages, IPTC categories, countries', async () => {
    const languages = await tab(['search', '--language-code', '']);
    expect(languages.values).toHaveLength(183);
    expect(languages.lines).toContain('fr\tFrench');
    const categories = await tab(['search', '--category-id', 'medtop:04']);
    expect(categories.lines).toEqual(['medtop:04000000\teconomy, business and finance']);
    expect((await tab(['search', '--category-id', ''])).values[0]).toBe('medtop:');
    expect((await tab(['search', '--source-country-code', 'g'])).values).toContain('gb');
  });

  it('leaves file paths to the shell after -o, --output and convert', async () => {
    for (const words of [
      ['search', '-o', ''],
      ['search', '--output', 'x'],
      ['convert', ''],
    ]) {
      const r = await tab(words);
      expect(r.values, words.join(' ')).toEqual([]);
      expect(r.directive & 4, words.join(' ')).toBe(0);
    }
    // Free text is not a file name.
    expect((await tab(['search', '--title', ''])).directive & 4).toBe(4);
  });

  it('completes query fields and their values inside --query', async () => {
    const r = await tab(['search', '--query', 'title:x AND sentiment.overall.pol']);
    expect(r.values).toEqual(['title:x AND sentiment.overall.polarity:']);
    const value = await tab(['search', '--query', '(source.bias:l']);
    expect(value.values).toEqual(['(source.bias:left']);
    expect((await tab(['search', '--param', 'sort.'])).values).toEqual(['sort.by=', 'sort.order=']);
  });

  it('offers names and ids remembered from suggest and searches, and profile names, without the network', async () => {
    const env = { XDG_CACHE_HOME: cacheHome() };
    const suggest = await runCli(['suggest', 'entities', 'tes', '--mock', '-f', 'json'], { env });
    expect(suggest.code, suggest.stderr).toBe(0);
    const tesla = (JSON.parse(suggest.stdout) as { id: number; name: string; type: string }[])[0]!;
    const ids = await tab(['search', '--entity-id', ''], env);
    expect(ids.lines).toContain(`${tesla.id}\t${tesla.name}`);
    const search = await runCli(['search', '--mock', '--limit', '30', '-f', 'json'], { env });
    const articles = JSON.parse(search.stdout) as { entities?: { name: string; type: string }[] }[];
    const org = articles.flatMap((a) => a.entities ?? []).find((e) => e.type === 'organization')!;
    expect((await tab(['search', '--organization-name', ''], env)).values).toContain(org.name);
    // No base URL is reachable here: Tab still answers from the cache.
    const offline = await tab(['search', '--entity-id', ''], {
      ...env,
      NEWS_API_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(offline.values.length).toBeGreaterThan(0);

    const config = scratchDir('news-config-');
    mkdirSync(join(config, 'news'));
    writeFileSync(
      join(config, 'news', 'config.json'),
      JSON.stringify({ profiles: { work: {}, home: {} } }),
    );
    expect((await tab(['balance', '--profile', ''], { XDG_CONFIG_HOME: config })).values).toEqual([
      'work',
      'home',
    ]);
    // The Tab path and the settings read one configPath (user-dirs.ts): the file above.
    expect(configPath({ XDG_CONFIG_HOME: config })).toBe(join(config, 'news', 'config.json'));
    expect(configPath({ HOME: '/home/x' })).toBe('/home/x/.config/news/config.json');
  });
});

function flagsOf(command: TreeCommand): string[] {
  return command.options.flatMap((o) => o.names.filter((n) => n.startsWith('--')));
}

describe('drift: completion data and scripts follow the code', () => {
  it('completions/ holds exactly what `news completion SHELL` prints', async () => {
    for (const shell of SHELLS) {
      const r = await runCli(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(completionScript(shell));
      const file = readFileSync(
        new URL(`../../completions/${SHELL_FILES[shell]}`, import.meta.url),
        'utf8',
      );
      expect(file, `completions/${SHELL_FILES[shell]}: run npm run completions`).toBe(
        completionScript(shell),
      );
    }
  });

  // The built tree (dist/, the binary's fast path) against the live program:
  // test/cli/completion-shells.test.ts, which runs where dist/ is built.

  it('every flag of the parameter table is in the data for search, and nothing that is not a flag', async () => {
    const search = liveTree().root.commands.find((c) => c.name === 'search')!;
    const flags = flagsOf(search);
    for (const def of SEARCH_PARAMS) expect(flags).toContain(`--${flagName(def.name)}`);
    const expected = [
      ...SEARCH_PARAMS.map((d) => `--${flagName(d.name)}`),
      '--param',
      '--all',
      '--limit',
      '--raw',
      '--help',
      // The command's own options (--resolve, the unattended-run flags, …), from its spec.
      ...(searchSpec.options ?? []).map((o) => o.flags.split(/[ ,<[]/)[0] ?? ''),
      // The global options it takes, from the one table (--concurrency: it pages).
      ...globalsOf([...(searchSpec.globals ?? DEFAULT_GLOBALS), ...PAGING]).map(
        (o) => o.flags.split(/[ <]/).find((f) => f.startsWith('--')) ?? '',
      ),
    ];
    expect(new Set(flags)).toEqual(new Set(expected));
    // And each of them is a flag commander accepts: --dry-run shows it parsed, nothing unknown.
    const r = await runCli(['__complete', 'search', '--']);
    const offered = r.stdout
      .split('\n')
      .map((l) => l.split('\t')[0] ?? '')
      .filter((v) => v.startsWith('--'));
    const withValues = new Set(
      search.options.filter((o) => o.value !== 'none').flatMap((o) => o.names),
    );
    // One command line holding every offered flag: commander parses it (a value check may refuse it later).
    const argv = ['search'];
    for (const flag of offered) {
      if (['--help', '--version'].includes(flag)) continue;
      argv.push(flag, ...(withValues.has(flag) ? ['1'] : []));
    }
    const parsed = await runCli([...argv, '--dry-run']);
    expect(parsed.stderr).not.toMatch(/unknown option|too many arguments/);
    expect(offered.length).toBeGreaterThan(SEARCH_PARAMS.length);
  });
});

describe('values from servers on the Tab path', () => {
  it('a cached value with a control or bidi character is never printed; descriptions are cleaned', async () => {
    const { formatCompletion } = await import('../../src/cli/completion/engine.js');
    const text = formatCompletion({
      items: [
        ['Evil\u001b]0;PWNED\u0007', ''],
        ['two\nlines', ''],
        ['safe\u202Etxt', ''],
        ['Tesla', 'brand\u001b[31m red'],
      ],
      directive: 4,
    });
    expect(text).toBe('Tesla\tbrand[31m red\n:4\n');
  });
});
