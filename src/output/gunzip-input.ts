/**
 * `news convert` reads what `-o x.jsonl.gz` wrote: input that starts with
 * gzip's magic bytes is decompressed on the way in. Told apart by content,
 * like the record shapes, so stdin and any file name work.
 */
import { bad } from './json-scanner.js';

type Piece = Uint8Array | string;

const GZIP_MAGIC = [0x1f, 0x8b] as const;

function isGzip(head: Uint8Array): boolean {
  return head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

export async function* gunzipIfCompressed(input: AsyncIterable<Piece>): AsyncGenerator<Piece> {
  const pieces = input[Symbol.asyncIterator]();
  // Enough of the start to see the two magic bytes (a pipe may deliver one).
  const head: Piece[] = [];
  let length = 0;
  while (length < GZIP_MAGIC.length) {
    const next = await pieces.next();
    if (next.done) break;
    head.push(next.value);
    if (typeof next.value === 'string') break; // text, not gzip
    length += next.value.length;
  }
  const rest: AsyncIterable<Piece> = { [Symbol.asyncIterator]: () => pieces };
  const all = async function* (): AsyncGenerator<Piece> {
    yield* head;
    yield* rest;
  };
  const start = head.every((p) => typeof p !== 'string')
    ? Buffer.concat(head as Uint8Array[])
    : undefined;
  if (start === undefined || !isGzip(start)) {
    yield* all();
    return;
  }
  const [{ createGunzip }, { Readable, pipeline }] = await Promise.all([
    import('node:zlib'),
    import('node:stream'),
  ]);
  const gunzip = createGunzip();
  pipeline(Readable.from(all()), gunzip, () => undefined);
  try {
    yield* gunzip as AsyncIterable<Uint8Array>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_')) throw bad(`the gzip data is damaged (${(error as Error).message})`);
    throw error;
  }
}
