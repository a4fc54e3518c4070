/**
 * README's command table names every command of the registry, so a command
 * added without its line (CONTRIBUTING.md, "A command") fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/cli/registry.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = readme.slice(
  readme.indexOf('## Commands'),
  readme.indexOf('\n## ', readme.indexOf('## Commands') + 1),
);
/** The first cell of each row: `search`, `people`, `companies`, … */
const named = new Set(
  [...section.matchAll(/^\| (.+?) \|/gm)].flatMap((m) =>
    [...m[1]!.matchAll(/`([a-z][a-z-]*)/g)].map((n) => n[1]!),
  ),
);

describe("README's command table", () => {
  it('has rows to read', () => {
    expect(named.size).toBeGreaterThan(20);
  });

  it.each(COMMANDS.map((c) => c.name))('names %s', (name) => {
    expect(named).toContain(name);
  });
});
