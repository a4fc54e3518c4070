import { afterAll, beforeAll } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exportRecords } from '../../src/output/index.js';
import type { ExportOptions, ExportResult } from '../../src/output/index.js';
import type { ApiRecord, FormatName, RecordKind } from '../../src/output/types.js';
import { scratchDir } from '../helpers/scratch.js';
import { pagesOf } from './tricky-records.js';

export function tempDir(): string {
  return scratchDir('news-output-test-');
}

export function filesIn(dir: string): string[] {
  return readdirSync(dir).sort();
}

export interface Run {
  result: ExportResult;
  warnings: string[];
  path: string;
}

/** Exports `records` (pages of 2) to a fresh file named `out.<ext>`. */
export async function exportToFile(
  format: FormatName,
  records: readonly ApiRecord[],
  extra: Partial<ExportOptions> & { kind?: RecordKind; ext?: string } = {},
): Promise<Run> {
  const dir = tempDir();
  const path = join(dir, `out.${extra.ext ?? format}`);
  const warnings: string[] = [];
  const { ext: _ext, ...rest } = extra;
  const result = await exportRecords(pagesOf(records), {
    format,
    output: path,
    stdout: process.stdout,
    stdoutIsTTY: false,
    kind: 'article',
    warn: (m) => warnings.push(m),
    title: 'news search --title test',
    terminalWidth: 100,
    ...rest,
  });
  return { result, warnings, path };
}

/**
 * The two settings of the fast-path switch (src/output/fast-paths.ts), for
 * `describe.each`: a format's tests run once with the fast paths and once
 * without, and must pass the same way.
 */
export const FAST_PATHS: readonly [string, string | undefined][] = [
  ['fast paths on', undefined],
  ['fast paths off', '1'],
];

/** Sets NEWS_NO_FAST_PATHS for the enclosing describe block (undefined: unset). */
export function withFastPaths(value: string | undefined): void {
  const before = process.env['NEWS_NO_FAST_PATHS'];
  const set = (v: string | undefined) => {
    if (v === undefined) delete process.env['NEWS_NO_FAST_PATHS'];
    else process.env['NEWS_NO_FAST_PATHS'] = v;
  };
  beforeAll(() => set(value));
  afterAll(() => set(before));
}
