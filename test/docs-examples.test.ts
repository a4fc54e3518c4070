/**
 * Every example in README.md and docs/*.md runs against the mock and does what
 * the text says. Examples are found, not listed: every line of a fenced block
 * that starts with `news ` or `$ news ` (a transcript, whose following lines
 * are the output it shows), and every `news …` code span in a table row (the
 * README's command table). So an example added later is checked too.
 *
 * What "does what the text says" means here:
 * - the exit code is 0, or the one the text names (`# … exit 2`, or an
 *   `error:` line in the shown output, which means a usage error, 2, unless
 *   the text names another);
 * - a command that succeeds prints something (records, a file note, a card);
 * - in a transcript, every output line shown appears in the real output,
 *   compared with numbers masked (points and counts depend on the data).
 *
 * Each example runs in-process (runCli) with `--mock` added, in a scratch
 * directory holding the input files the docs name (saved.jsonl, body.json …),
 * with the shell variables the docs name ($SECRET, $T, $SIG: a delivery
 * signed here) expanded; a line ending in `\` goes on on the next one. The
 * examples of one file share one config home, so `config set … --profile
 * test` followed by `--profile test search` works as the text reads.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedConfigHome, runCli } from './helpers/cli.js';

const ROOT = join(import.meta.dirname, '..');

/**
 * Examples that cannot run in-process, and why. Matched against the command
 * line as written in the docs (a substring).
 */
const SKIP: readonly [string, string][] = [
  // Serves until Ctrl-C: covered by test/e2e/mock-serve.test.ts.
  ['news mock serve', 'a server that runs until interrupted'],
  // Command substitution needs a shell; `suggest entities tesla --ids` runs on its own below.
  ['$(', 'shell command substitution'],
  // A key placeholder ("api_live_…") is not a key.
  ['…', 'a placeholder the reader fills in'],
  // Points at a server the reader started with `news mock serve`.
  ['--base-url http://127.0.0.1:4010', 'needs a running `news mock serve`'],
  // Live commands that end only on Ctrl-C unless bounded.
  ['news stream', 'a stream without --max-events runs until interrupted'],
  ['news webhooks listen', 'a listener runs until interrupted'],
  // A server for an MCP client, on stdin or HTTP: test/e2e/mcp-*.test.ts drive it with one.
  ['news mcp', 'an MCP server answers an MCP client'],
];

/** What the `webhooks verify` examples check: a delivery body, signed with SECRET. */
const SECRET = 'whsec_docs_examples';
const BODY = `${JSON.stringify({
  event: 'articles.new',
  webhook_id: 1,
  articles: [{ id: 500000002, title: 'Rate cut expected' }],
})}\n`;

/** The shell variables the examples use, as a reader would have set them; T signed now. */
function shellVariables(): Record<string, string> {
  const t = String(Math.floor(Date.now() / 1000));
  const hex = createHmac('sha256', SECRET).update(`${t}.${BODY}`).digest('hex');
  return { SECRET, T: t, SIG: `sha256=${hex}` };
}

/** `$NAME` of a known variable replaced by its value, outside single quotes. */
function expand(command: string, variables: Record<string, string>): string {
  return command.replace(/'[^']*'|\$([A-Z_][A-Z0-9_]*)/g, (match, name: string | undefined) =>
    name !== undefined && name in variables ? variables[name]! : match,
  );
}

interface Example {
  readonly file: string;
  readonly line: number;
  readonly command: string;
  readonly comment: string;
  /** Output lines a transcript shows after the command. */
  readonly shown: readonly string[];
}

/** The `# comment` at the end of a line, outside quotes. */
function splitComment(line: string): [string, string] {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
      return [line.slice(0, i).trimEnd(), line.slice(i + 1).trim()];
    }
  }
  return [line.trimEnd(), ''];
}

function examplesOf(file: string): Example[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const lines = text.split('\n');
  const out: Example[] = [];
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^\s*```/.test(raw)) {
      inBlock = !inBlock;
      continue;
    }
    if (!inBlock) {
      // A table cell that is an example: `| cmd | endpoint | \`news …\` |`
      // (a code span inside a sentence is a reference, not an example).
      if (raw.startsWith('|')) {
        for (const m of raw.matchAll(/\|\s*`(news [^`]+)`\s*(?=\|)/g)) {
          const [command, comment] = splitComment(m[1]!.replace(/\\\|/g, '|'));
          out.push({ file, line: i + 1, command, comment, shown: [] });
        }
      }
      continue;
    }
    const trimmed = raw.trim();
    const first = i;
    const transcript = trimmed.startsWith('$ ');
    // `news …`, or with environment assignments first (`COLUMNS=100 news …`).
    if (!/^(\$ )?([A-Z_]+=\S+ )*news /.test(trimmed)) continue;
    // A line continued with `\` is one command.
    let full = trimmed;
    while (full.endsWith('\\') && i + 1 < lines.length) {
      full = `${full.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
    }
    const [command, comment] = splitComment(full.replace(/^\$ /, ''));
    const shown: string[] = [];
    if (transcript) {
      for (let j = i + 1; j < lines.length; j++) {
        const next = lines[j]!;
        if (/^\s*```/.test(next) || next.trim().startsWith('$ ')) break;
        shown.push(next);
      }
    }
    out.push({ file, line: first + 1, command, comment, shown });
  }
  return out;
}

/** Shell words: quotes removed, no expansion (the examples need none). */
function words(command: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  for (const ch of command) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started || current !== '') out.push(current);
      current = '';
      started = false;
    } else current += ch;
  }
  if (started || current !== '') out.push(current);
  return out;
}

/** Pipeline stages, split at `|` outside quotes. */
function stages(command: string): string[] {
  const out: string[] = [];
  let quote: string | undefined;
  let current = '';
  for (const ch of command) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '|') {
      out.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  out.push(current.trim());
  return out;
}

function expectedExit(example: Example): number {
  const said = `${example.comment} ${example.shown.join(' ')}`.match(/exit (\d+)/);
  if (said) return Number(said[1]);
  return example.shown.some((l) => l.startsWith('error:')) ? 2 : 0;
}

/**
 * An example that succeeds must have found something: an empty list, a zero
 * count or "wrote 0 records" means the docs name something the fixtures lack.
 */
function emptiness(stdout: string, stderr: string): string | undefined {
  if (/wrote 0 records/.test(stderr)) return 'wrote 0 records';
  const text = stdout.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(parsed) && parsed.length === 0) return 'an empty list';
  if (typeof parsed === 'object' && parsed !== null) {
    const { count, results } = parsed as { count?: unknown; results?: unknown };
    if (count === 0) return 'a count of 0';
    if (Array.isArray(results) && results.length === 0) return 'no results';
  }
  return undefined;
}

/** Numbers masked and spaces squeezed: "999,999 remaining" ≈ "999,990 remaining". */
function loose(text: string): string {
  return text
    .replace(/\d[\d,.]*/g, 'N')
    .replace(/\s+/g, ' ')
    .trim();
}

const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

let scratch: string;
const startDir = process.cwd();
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'news-examples-'));
  mkdirSync(scratch, { recursive: true });
  // The saved files the convert examples read.
  const saved = await runCli(['search', '--mock', '--limit', '20', '-f', 'jsonl']);
  writeFileSync(join(scratch, 'saved.jsonl'), saved.stdout);
  writeFileSync(join(scratch, 'saved.jsonl.gz'), gzipSync(saved.stdout));
  const json = await runCli(['search', '--mock', '--limit', '20', '-f', 'json']);
  writeFileSync(join(scratch, 'saved.json'), json.stdout);
  writeFileSync(join(scratch, 'body.json'), BODY);
  process.chdir(scratch);
}, 60_000);
afterAll(() => process.chdir(startDir));

describe.each(FILES)('examples in %s', (file) => {
  const examples = examplesOf(file);
  const home = isolatedConfigHome();
  const runnable = examples.filter((e) => !SKIP.some(([needle]) => e.command.includes(needle)));

  it('has its examples found (or none to run)', () => {
    expect(examples.length).toBeGreaterThanOrEqual(runnable.length);
  });

  it.each(runnable.map((e) => [`${e.line}: ${e.command}`, e] as const))(
    '%s',
    async (_name, example) => {
      // `> file` sends stdout away: the output is still captured, only the file is not written.
      const [pipeline] = expand(example.command, shellVariables()).split(/\s>\s/);
      let stdin: string | undefined;
      let last = { code: 0, stdout: '', stderr: '' };
      for (const stage of stages(pipeline!)) {
        const argv = words(stage);
        // The mock for every command that sends requests (offline ones take no --mock).
        const env: Record<string, string> = { XDG_CONFIG_HOME: home, NEWS_API_MOCK: '1' };
        while (/^[A-Z_]+=/.test(argv[0] ?? '')) {
          const [name, ...value] = argv.shift()!.split('=');
          env[name!] = value.join('=');
        }
        // A stage that is not ours (jq, head, wc) reads what we wrote: not run here.
        if (argv[0] !== 'news') break;
        last = await runCli(argv.slice(1), {
          env,
          ...(stdin === undefined ? {} : { stdin }),
        });
        stdin = last.stdout;
        if (last.code !== 0) break;
      }
      const where = `${example.file}:${example.line}\n${last.stderr}`;
      expect(last.code, where).toBe(expectedExit(example));
      if (last.code === 0) {
        expect(`${last.stdout}${last.stderr}`.trim(), where).not.toBe('');
        expect(emptiness(last.stdout, last.stderr), where).toBeUndefined();
      }
      const output = loose(`${last.stdout}\n${last.stderr}`);
      for (const line of example.shown) {
        const [text] = splitComment(line);
        if (text.trim() === '' || /^\s*\^+\s*$/.test(text)) continue;
        expect(output, where).toContain(loose(text));
      }
    },
    60_000,
  );
});
