/**
 * StagedRun.discard (src/cli/unattended/commit.ts): a run that fails after its
 * intent (`pending: writing`) was written, but before its commit was
 * recorded, puts the state back as it found it and removes what it staged,
 * so the next run has nothing to settle and says nothing about it.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StagedRun } from '../../../src/cli/unattended/commit.js';
import { type RunState, nextRunState } from '../../../src/cli/run-state/run-state.js';
import type { RequestSpec } from '../../../src/api/types.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const spec: RequestSpec = { method: 'GET', path: '/articles', query: { title: 'x' } };

function folder(): { root: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'news-discard-'));
  return { root: join(dir, 'data'), file: join(dir, 'state.json') };
}

async function stageAndFail(
  root: string,
  file: string,
  base: RunState | undefined,
): Promise<StagedRun> {
  const run = StagedRun.create(root, { file, spec, base }, () => NOW);
  const path = await run.stage('day=2026-11-20/part.parquet');
  writeFileSync(path, 'half a file');
  expect(JSON.parse(readFileSync(file, 'utf8')).pending.stage).toBe('writing');
  await run.discard();
  expect(existsSync(run.staging)).toBe(false);
  return run;
}

describe('StagedRun.discard', () => {
  it('writes the starting state back, byte for byte', async () => {
    const { root, file } = folder();
    const base = nextRunState(spec, undefined, 41, 7, NOW);
    writeFileSync(file, `${JSON.stringify(base, null, 2)}\n`);
    const before = readFileSync(file, 'utf8');
    await stageAndFail(root, file, base);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('removes the state a first run created', async () => {
    const { root, file } = folder();
    await stageAndFail(root, file, undefined);
    expect(existsSync(file)).toBe(false);
  });

  it('after a recorded commit leaves the state alone', async () => {
    const { root, file } = folder();
    const run = StagedRun.create(root, { file, spec, base: undefined }, () => NOW);
    writeFileSync(await run.stage('a.csv'), 'id\n1\n');
    const next = nextRunState(spec, undefined, 1, 1, NOW);
    await run.commit(next);
    await run.discard();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(next);
    expect(readFileSync(join(root, 'a.csv'), 'utf8')).toBe('id\n1\n');
  });
});
