import { createReadStream } from 'node:fs';
import { UsageError } from '../../api/errors.js';
import type { ApiRecord, RecordKind } from '../../output/types.js';
import type { CommandSpec } from '../command-spec.js';
import { exportPages } from '../export-pages.js';

const KINDS: readonly RecordKind[] = ['article', 'person', 'company', 'journalist', 'generic'];

/** Articles have a title and a publication date; anything else gets generic columns. */
function guessKind(first: ApiRecord | undefined): RecordKind {
  return first && 'title' in first && 'published_at' in first ? 'article' : 'generic';
}

export const convert: CommandSpec = {
  name: 'convert',
  summary: 'turn saved JSON or JSONL records into any format, offline',
  description:
    'Reads a JSON array, a saved response envelope ({"results": [...]}) or JSONL/NDJSON from FILE (or - / nothing for stdin) and writes it with -f/-o, exactly as a live export would.',
  args: [{ name: 'file', description: 'input file, or - for stdin', required: false }],
  options: [
    {
      flags: '--kind <kind>',
      description: `record kind for default columns: ${KINDS.join('|')} (default: guessed)`,
    },
  ],
  examples: [
    'news convert saved.jsonl -o saved.parquet',
    'news stream -f jsonl | news convert -f csv > live.csv',
  ],
  async run(input, runtime) {
    const file = input.args[0];
    const kindOption = input.options['kind'];
    if (kindOption !== undefined && !KINDS.includes(kindOption as RecordKind)) {
      throw new UsageError(
        `--kind must be one of ${KINDS.join(', ')} (got "${String(kindOption)}")`,
      );
    }
    const source = file === undefined || file === '-' ? runtime.io.stdin : createReadStream(file);
    const opened = new Promise<void>((resolve, reject) => {
      if (source === runtime.io.stdin) return resolve();
      source.once('open', () => resolve());
      source.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new UsageError(
            `cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
          ),
        ),
      );
    });
    await opened;
    const { readRecords } = await import('../../output/index.js');
    const pages = readRecords(source)[Symbol.asyncIterator]();
    const first = await pages.next();
    const kind =
      (kindOption as RecordKind | undefined) ?? guessKind(first.done ? undefined : first.value[0]);
    async function* all(): AsyncGenerator<ApiRecord[]> {
      if (!first.done) yield first.value;
      for (;;) {
        const next = await pages.next();
        if (next.done) return;
        yield next.value;
      }
    }
    await exportPages(runtime, all(), kind, `news convert ${file ?? '-'}`);
  },
};
