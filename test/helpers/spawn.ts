/**
 * The built binary as a user runs it (a file that imports this runs in the
 * "built" project, which builds dist/ first when stale: build-once.ts). Always
 * spawned asynchronously: a blocking spawn would starve anything serving in
 * the test's own process (a recording server, the mock).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/news.js', import.meta.url));

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  /** What the process printed so far. */
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

export function spawnCollecting(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Spawned {
  const child = spawn(command, args, { env });
  let stdout = '';
  let stderr = '';
  // Decoded across chunks: a character whose bytes a pipe splits stays whole.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (c: string) => {
    stdout += c;
  });
  child.stderr.on('data', (c: string) => {
    stderr += c;
  });
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** Runs to the end: exit code and everything printed. */
export async function runToEnd(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnCollecting(command, args, env);
  const code = await run.exit;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/**
 * Runs to the end with FILE as its stdin, as `command < FILE` does: the
 * process reads the file itself, with no pipe through this one.
 */
export async function runToEndFrom(
  file: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const fd = openSync(file, 'r');
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(command, args, { env, stdio: [fd, 'pipe', 'pipe'] });
  } finally {
    closeSync(fd); // the child has its own copy
  }
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
  });
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  const code = await new Promise<number | null>((resolve) =>
    child.on('close', (exit) => resolve(exit)),
  );
  return { code, stdout, stderr };
}
