/**
 * commander's private methods as NewsCommand uses them
 * (src/cli/commander-internals.ts): an upgrade that renames one, changes
 * its arity or stops calling it where we rely on it fails here, by name,
 * rather than as a flag quietly not found or a typo quietly accepted.
 */
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  COMMANDER_VERSION,
  PRIVATE_METHODS,
  findCommand,
  installPrivateHooks,
} from '../../src/cli/commander-internals.js';

const root = new URL('../../', import.meta.url);
const json = (path: string) =>
  JSON.parse(readFileSync(new URL(path, root), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };

/** A Command whose hooks record each call and otherwise do what commander does. */
function recorder() {
  const calls: string[] = [];
  class Recorded extends Command {
    override createCommand(name?: string): Command {
      return new Recorded(name);
    }
  }
  installPrivateHooks(Recorded, {
    findOption(flag) {
      calls.push(`findOption ${flag}`);
      return this.options.find((o) => o.short === flag || o.long === flag);
    },
    beforeHelp(args) {
      calls.push(`beforeHelp ${this.name()} ${args.join(' ')}`);
    },
    beforeExcessArguments(args) {
      calls.push(`beforeExcessArguments ${this.name()} ${args.join(' ')}`);
    },
  });
  const program = new Recorded('news').exitOverride().configureOutput({
    writeOut: () => undefined,
    writeErr: () => undefined,
  });
  program.allowExcessArguments(false);
  return { program, calls };
}

describe('commander internals', () => {
  it('the installed and the pinned version are the one the adapter was written for', () => {
    expect(json('package.json').dependencies['commander']).toBe(COMMANDER_VERSION);
    expect(json('node_modules/commander/package.json').version).toBe(COMMANDER_VERSION);
  });

  it('each private method exists, with the arity we call it with', () => {
    const proto = Command.prototype as unknown as Record<string, unknown>;
    for (const [name, arity] of Object.entries(PRIVATE_METHODS)) {
      expect(typeof proto[name], name).toBe('function');
      expect((proto[name] as (...args: unknown[]) => unknown).length, name).toBe(arity);
    }
  });

  it('_findOption: asked for every flag added and parsed; its answer is the option used', () => {
    const { program, calls } = recorder();
    let seen: unknown;
    program.addOption(new Option('-l, --limit <n>')).action((options: { limit?: string }) => {
      seen = options.limit;
    });
    expect(calls).toEqual(['findOption -l', 'findOption --limit']);
    program.parse(['--limit', '7'], { from: 'user' });
    expect(calls).toContain('findOption --limit');
    expect(seen).toBe('7');
  });

  it('_outputHelpIfRequested: runs before --help is shown, with the unknown words', () => {
    const { program, calls } = recorder();
    program.command('search').action(() => undefined);
    expect(() => program.parse(['serach', '--help'], { from: 'user' })).toThrow(
      expect.objectContaining({ code: 'commander.helpDisplayed' }),
    );
    expect(calls).toContain('beforeHelp news --help');
    expect(program.args[0]).toBe('serach');
  });

  it('_excessArguments: runs before "too many arguments", with the arguments', () => {
    const { program, calls } = recorder();
    const people = program.command('people');
    people.command('get').action(() => undefined);
    people.action(() => undefined);
    expect(() => program.parse(['people', 'gte'], { from: 'user' })).toThrow(
      expect.objectContaining({ code: 'commander.excessArguments' }),
    );
    expect(calls).toContain('beforeExcessArguments people gte');
  });

  it('_findCommand: a subcommand by name or alias, undefined for neither', () => {
    const program = new Command('news');
    const webhooks = program.command('webhooks').alias('hooks');
    expect(findCommand(program, 'webhooks')).toBe(webhooks);
    expect(findCommand(program, 'hooks')).toBe(webhooks);
    expect(findCommand(program, 'webhook')).toBeUndefined();
  });
});
