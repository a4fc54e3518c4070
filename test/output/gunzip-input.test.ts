import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { gunzipIfCompressed } from '../../src/output/gunzip-input.js';

const TEXT = '{"id":1,"title":"Zoë 🎉"}\n{"id":2}\n';

/** The input in one-byte pieces, as a slow pipe may deliver it. */
function trickle(bytes: Uint8Array): Readable {
  return Readable.from(Array.from(bytes, (b) => Buffer.from([b])));
}

async function text(input: AsyncIterable<Uint8Array | string>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const p of gunzipIfCompressed(input)) parts.push(Buffer.from(p));
  return Buffer.concat(parts).toString();
}

describe('gunzipIfCompressed', () => {
  it('decompresses gzip, told by its magic bytes even a byte at a time', async () => {
    expect(await text(trickle(gzipSync(TEXT)))).toBe(TEXT);
    expect(await text(Readable.from([gzipSync(TEXT)]))).toBe(TEXT);
  });

  it('passes anything else through untouched', async () => {
    expect(await text(trickle(Buffer.from(TEXT)))).toBe(TEXT);
    expect(await text(Readable.from(['{"a":', '1}\n'], { objectMode: true }))).toBe('{"a":1}\n');
    expect(await text(Readable.from([]))).toBe('');
  });

  it('damaged gzip is a usage error about the input', async () => {
    const cut = gzipSync(TEXT.repeat(100)).subarray(0, 40);
    const error = await text(Readable.from([cut])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain('cannot read the input: the gzip data is damaged');
  });
});
