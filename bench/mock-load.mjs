#!/usr/bin/env node
/**
 * A load generator in its own process (so that it does not share the
 * measured server's event loop): POSTs the given JSON bodies to URL in turn,
 * over C keep-alive connections (undici), each connection sending its next
 * request as soon as the previous answer is read whole, for S seconds after
 * W seconds of warm-up. Prints one JSON line: requests, failures (non-200),
 * seconds, bytes of answers read, its own CPU seconds while counting.
 * Usage: node bench/mock-load.mjs URL BODIES.json [--connections 10]
 *        [--seconds 5] [--warmup 0.5] [--key api_live_mock_pro]
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { numberOption, option } from './lib.mjs';

const [url, bodiesFile] = process.argv.slice(2);
const CONNECTIONS = numberOption('connections', 10);
const SECONDS = numberOption('seconds', 5);
const WARMUP = numberOption('warmup', 0.5);
const KEY = option('key', 'api_live_mock_pro');
const bodies = JSON.parse(readFileSync(bodiesFile, 'utf8'));
const headers = { 'content-type': 'application/json', 'x-api-key': KEY };

const agent = new Agent({ connections: CONNECTIONS, keepAliveTimeout: 30_000 });
let next = 0;
let counting = false;
const totals = { requests: 0, failed: 0, bytes: 0, firstFailure: undefined };

async function loop(until) {
  while (performance.now() < until) {
    const body = bodies[next++ % bodies.length];
    const answer = await request(url, { method: 'POST', dispatcher: agent, headers, body });
    let bytes = 0;
    for await (const chunk of answer.body) bytes += chunk.length;
    if (!counting) continue;
    totals.requests++;
    totals.bytes += bytes;
    if (answer.statusCode !== 200) {
      totals.failed++;
      totals.firstFailure ??= answer.statusCode;
    }
  }
}

const run = (seconds) =>
  Promise.all(Array.from({ length: CONNECTIONS }, () => loop(performance.now() + seconds * 1000)));
await run(WARMUP);
counting = true;
const started = performance.now();
const cpuBefore = process.cpuUsage();
await run(SECONDS);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
await agent.close();
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
process.stdout.write(`${JSON.stringify({ ...totals, seconds, cpuSeconds })}\n`);
