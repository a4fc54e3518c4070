#!/usr/bin/env node
/**
 * `npm test`: the type check, the lint and the tests, all at once. None of
 * them writes what another reads (the tests' build writes dist/, which
 * neither tsc --noEmit nor biome looks at), and the two checks mostly wait on
 * one core while the test workers use the others. The tests print as they
 * go; each check's output is printed when it ends, so nothing interleaves.
 * Exits non-zero when any of the three failed, after all three have ended.
 * Arguments are passed to vitest (`npm test -- test/cli`).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

function quiet(name, command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code) => {
      const text = Buffer.concat(chunks).toString();
      const status = code === 0 ? 'ok' : `FAILED (exit ${code})`;
      process.stdout.write(`\n── ${name}: ${status}\n${code === 0 ? '' : text}`);
      resolve(code === 0);
    });
  });
}

function live(command, args) {
  return new Promise((resolve) => {
    spawn(command, args, { stdio: 'inherit' }).on('close', (code) => resolve(code === 0));
  });
}

const results = await Promise.all([
  live(process.execPath, [vitest, 'run', ...process.argv.slice(2)]),
  quiet('typecheck (tsc --noEmit)', npm, ['run', '--silent', 'typecheck']),
  quiet('lint (biome)', npm, ['run', '--silent', 'lint']),
]);
process.exitCode = results.every(Boolean) ? 0 : 1;
