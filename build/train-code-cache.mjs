#!/usr/bin/env node
/**
 * Build step (build/bundle.mjs runs it in a process of its own): compiles
 * dist/bundle/start.cjs, runs in-process the commands whose start-up counts
 * (a dry run, a count and a search against the mock, `news mcp`'s first
 * answer in each protocol era; `--help` is answered
 * from the help models, bin/news.js, without start.cjs), then writes V8's
 * code caches of everything they compiled to dist/bundle/start.cache and
 * lazy.cache
 * (src/cli/boot/code-cache.ts reads it). Nothing is read from or written to
 * the user's config or cache folders.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  builtCacheFile,
  coreFiles,
  encodeCache,
  fingerprint,
  loadCore,
} from '../dist/cli/boot/code-cache.js';

const bundleDir = fileURLToPath(new URL('../dist/bundle/', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'news-train-'));
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
  NEWS_NO_COMPLETION_CACHE: '1',
};
const TRAINING = [
  ['search', '--dry-run', '--title', 'bitcoin', '--language-code', 'en'],
  ['count', '--dry-run', '--title', 'bitcoin'],
  ['count', '--mock', '--title', 'bitcoin'],
  ['search', '--mock', '--title', 'bitcoin', '--per-page', '5'],
];
/** `news mcp`'s first answer, in each protocol era: what a client waits for before anything. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'train', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const MCP_OPENINGS = [
  { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } },
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'train', version: '1' },
    },
  },
];

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
try {
  const files = coreFiles(env, bundleDir);
  const core = loadCore(files, { ...env, NEWS_NO_CODE_CACHE: '1' });
  if (core === undefined) throw new Error(`no start.cjs in ${bundleDir}`);
  for (const argv of TRAINING) {
    const io = {
      stdout: sink(),
      stderr: sink(),
      stdin: Readable.from([]),
      env,
      now: () => new Date(),
    };
    const code = await core.exports.run(argv, io);
    if (code !== 0) throw new Error(`news ${argv.join(' ')} exited ${code} while training`);
  }
  for (const opening of MCP_OPENINGS) {
    const io = {
      stdout: sink(),
      stderr: sink(),
      stdin: Readable.from([`${JSON.stringify(opening)}\n`]),
      env,
      now: () => new Date(),
    };
    const code = await core.exports.run(['mcp', '--mock'], io);
    if (code !== 0) throw new Error(`news mcp (${opening.method}) exited ${code} while training`);
  }
  for (const [part, { script }] of core.compiled)
    writeFileSync(
      builtCacheFile(files, part),
      encodeCache(script.createCachedData(), core.build, fingerprint(process.env)),
    );
} finally {
  rmSync(home, { recursive: true, force: true });
}
