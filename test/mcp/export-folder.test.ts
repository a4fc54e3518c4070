/**
 * export_news writes only inside `--export-dir`: `..`, absolute paths, URLs,
 * links out of the folder and anything but a regular file are refused before
 * a request is sent; the resources list only the folder's own files.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportPath, exportedFiles, openExportFolder } from '../../src/cli/mcp/export-folder.js';
import { UsageError } from '../../src/params/errors.js';
import { scratchDir } from '../helpers/scratch.js';

async function refused(folder: string, name: unknown): Promise<string> {
  const error = await exportPath(folder, name).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('the export folder', () => {
  it('takes a name inside it, in a subfolder too', async () => {
    const folder = await openExportFolder(scratchDir('mcp-export-'));
    mkdirSync(join(folder, 'sub'));
    expect(await exportPath(folder, 'rates.csv')).toBe(join(folder, 'rates.csv'));
    expect(await exportPath(folder, 'sub/rates.parquet')).toBe(
      join(folder, 'sub', 'rates.parquet'),
    );
    expect(await exportPath(folder, './sub/../x.json')).toBe(join(folder, 'x.json'));
  });

  it('refuses every way out', async () => {
    const folder = await openExportFolder(scratchDir('mcp-export-'));
    const outside = scratchDir('mcp-outside-');
    symlinkSync(outside, join(folder, 'away'));
    symlinkSync(join(outside, 'target.csv'), join(folder, 'link.csv'));
    expect(await refused(folder, '../x.csv')).toMatch(/leaves the export folder/);
    expect(await refused(folder, 'sub/../../x.csv')).toMatch(/leaves the export folder/);
    expect(await refused(folder, join(outside, 'x.csv'))).toMatch(/absolute paths/);
    expect(await refused(folder, 's3://bucket/x.csv')).toMatch(/URLs are refused/);
    expect(await refused(folder, 'away/x.csv')).toMatch(/through a symbolic link/);
    expect(await refused(folder, 'link.csv')).toMatch(/symbolic link out/);
    expect(await refused(folder, 'missing/x.csv')).toMatch(
      /a folder the export folder does not have/,
    );
    expect(await refused(folder, '')).toMatch(/output is required/);
    expect(await refused(folder, 7)).toMatch(/output is required/);
  });

  it('refuses what is not a regular file', async () => {
    const folder = await openExportFolder(scratchDir('mcp-export-'));
    mkdirSync(join(folder, 'dir.csv'));
    await new Promise((resolve) => spawn('mkfifo', [join(folder, 'pipe.csv')]).on('exit', resolve));
    expect(await refused(folder, 'dir.csv')).toMatch(/not a regular file/);
    expect(await refused(folder, 'pipe.csv')).toMatch(/not a regular file/);
  });

  it('must exist', async () => {
    await expect(openExportFolder(join(scratchDir('mcp-export-'), 'none'))).rejects.toThrow(
      /--export-dir .* is not a folder/,
    );
  });

  it('lists its own files, not hidden ones nor those behind links', async () => {
    const folder = await openExportFolder(scratchDir('mcp-export-'));
    const outside = scratchDir('mcp-outside-');
    writeFileSync(join(outside, 'secret.csv'), 'x');
    writeFileSync(join(folder, 'a.csv'), 'id\n1\n');
    writeFileSync(join(folder, '.a.csv.123.tmp'), '');
    mkdirSync(join(folder, 'sub'));
    writeFileSync(join(folder, 'sub', 'b.jsonl'), '{}\n');
    symlinkSync(outside, join(folder, 'away'));
    expect(await exportedFiles(folder)).toEqual([
      { name: 'a.csv', size: 5 },
      { name: 'sub/b.jsonl', size: 3 },
    ]);
  });
});
