/**
 * "A flag of the API's 0/1 kind alone means 1" (README) held only
 * where the flag was followed by another flag: `news trends --field topic.id
 * --trending` exited 2 (a switch needed its value) and `news story
 * --has-image 123` took the id as the flag's value. Every command with 0/1
 * flags, with the flag last, before the arguments, and with a value.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/registry.js';
import type { CommandSpec } from '../../src/cli/command-spec.js';
import { flagName } from '../../src/params/registry.js';
import type { ParamDef } from '../../src/params/types.js';
import { runCli } from '../helpers/cli.js';

/** What each command needs besides the flag: its arguments (and trends its --field). */
const NEEDS: Record<string, string[]> = {
  search: [],
  count: [],
  headlines: [],
  story: ['123'],
  trends: ['--field', 'topic.id'],
  local: ['--place', 'Paris'],
  entity: ['123'],
  stream: [],
  'journalists articles': ['5'],
  'webhooks update': ['7'],
  // A receiver: no --dry-run; the parsing is the same code.
  'webhooks listen': [],
};
const NO_DRY_RUN = new Set(['webhooks listen']);

function withZeroOne(specs: readonly CommandSpec[], path: string[] = []): [string, ParamDef[]][] {
  return specs.flatMap((spec) => {
    const here = [...path, spec.name];
    const defs = (spec.params ?? []).filter((d) => d.type === 'flag' || d.type === 'switch');
    const own: [string, ParamDef[]][] = defs.length > 0 ? [[here.join(' '), defs]] : [];
    return [...own, ...withZeroOne(spec.subcommands ?? [], here)];
  });
}

const commands = withZeroOne(COMMANDS);

async function body(argv: string[]): Promise<string> {
  const r = await runCli([...argv, '--mock', '--dry-run']);
  expect(r.code, `news ${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

describe('a 0/1 flag alone means 1, wherever it stands', () => {
  it('covers every command with 0/1 flags', () => {
    expect(commands.map(([path]) => path).sort()).toEqual(Object.keys(NEEDS).sort());
  });

  for (const [path, defs] of commands) {
    if (NO_DRY_RUN.has(path)) continue;
    // One of each kind: a `flag` (has_image…) and a `switch` (hl, trending…) where there is one.
    const picked = ['flag', 'switch']
      .map((type) => defs.find((d) => d.type === type))
      .filter((d): d is ParamDef => d !== undefined);
    for (const def of picked) {
      it(`news ${path} --${flagName(def.name)}`, async () => {
        const words = path.split(' ');
        const flag = `--${flagName(def.name)}`;
        const needs = NEEDS[path]!;
        // The JSON body, or the stream's query string.
        const sent = (value: 0 | 1) => {
          const name = def.name.replace(/\./g, '\\.');
          const json = def.type === 'flag' ? String(value) : `"${value}"`;
          return new RegExp(`"${name}": ${json}|[?&]${name}=${value}\\b`);
        };
        // Last, first (before the arguments and other flags), and with an explicit value.
        expect(await body([...words, ...needs, flag])).toMatch(sent(1));
        expect(await body([...words, flag, ...needs])).toMatch(sent(1));
        expect(await body([...words, flag, '0', ...needs])).toMatch(sent(0));
      });
    }
  }

  it('the issue line: news trends --field topic.id --trending', async () => {
    const r = await runCli(['trends', '--mock', '--field', 'topic.id', '--trending', '-f', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toHaveProperty('trending_score');
  });

  it('a word that is not 0/1 stays an argument, and is still refused where there is none', async () => {
    const story = await body(['story', '--has-image', '123']);
    expect(story).toMatch(/\/v1\/news\/story\/123\b/);
    const refused = await runCli(['search', '--mock', '--has-image', 'yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: --has-image must be 0 or 1$/m);
    // The value of an option that takes one is never a 0/1 flag's.
    const titled = await body(['story', '--title', '--has-image', '123']);
    expect(titled).toMatch(/"title": "--has-image"/);
  });
});
