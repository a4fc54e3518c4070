/**
 * A Parquet row group's text, held as UTF-8 while the group fills up. Kept as
 * JS strings, every body and JSON column of a group survived the worker's
 * young generation and was copied by each scavenge and again into the old
 * generation; as bytes in a few reused blocks nothing is left for the
 * collector. A value is known by a number (its handle), not by an object,
 * until the group is written; handles stay valid until `reset`, which the
 * row-group encoder calls once the group's bytes are written.
 *
 * Text comes in three ways: a JS string (`add`, a record's cell), bytes
 * already UTF-8 (`addBytes`, from convert's byte reader), or bytes written
 * straight into the block (`reserve`, then `commit`: the byte reader
 * unescaping a JSON string).
 */
const BLOCK = 256 * 1024;
const FIRST_CAPACITY = 1024;

export class Utf8Blocks {
  private readonly utf8 = new TextEncoder();
  private blocks: Uint8Array[] = [];
  private current = 0;
  /** Where the next value starts in the current block. */
  at = 0;
  /** The block values are written to (after `reserve`). */
  block: Uint8Array = new Uint8Array(0);
  /** Per value: its block, start and length. */
  private where = new Int32Array(FIRST_CAPACITY * 3);
  private count = 0;
  /** A saved position (`save`), to take back a half-added row (`restore`). */
  private saved = [0, 0, 0];

  /** Room for `size` more bytes at `block[at]`. */
  reserve(size: number): void {
    let block = this.blocks[this.current];
    if (block !== undefined && this.at + size <= block.length) {
      this.block = block;
      return;
    }
    if (block !== undefined) this.current++;
    this.at = 0;
    block = this.blocks[this.current];
    if (block === undefined || block.length < size) {
      block = new Uint8Array(Math.max(BLOCK, size));
      this.blocks[this.current] = block;
    }
    this.block = block;
  }

  /** The `length` bytes written at `block[at]` since `reserve`, as a value; returns its handle. */
  commit(length: number): number {
    if ((this.count + 1) * 3 > this.where.length) {
      const bigger = new Int32Array(this.where.length * 2);
      bigger.set(this.where);
      this.where = bigger;
    }
    const i = this.count * 3;
    this.where[i] = this.current;
    this.where[i + 1] = this.at;
    this.where[i + 2] = length;
    this.at += length;
    return this.count++;
  }

  /** Adds `text` as UTF-8 (lone surrogates as U+FFFD, as TextEncoder writes them); returns its handle. */
  add(text: string): number {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    this.reserve(text.length * 3);
    return this.commit(this.utf8.encodeInto(text, this.block.subarray(this.at)).written);
  }

  /** Adds a copy of `bytes[start, end)`, which are UTF-8; returns its handle. */
  addBytes(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    this.reserve(length);
    const block = this.block;
    let at = this.at;
    // Short values byte by byte: a subarray for each costs more.
    if (length < 32) for (let i = start; i < end; i++) block[at++] = bytes[i]!;
    else block.set(bytes.subarray(start, end), at);
    return this.commit(length);
  }

  /** The bytes of the value `handle`, valid until `reset`. */
  view(handle: number): Uint8Array {
    const i = handle * 3;
    const start = this.where[i + 1]!;
    return this.blocks[this.where[i]!]!.subarray(start, start + this.where[i + 2]!);
  }

  /** The block holding `handle` (see `start` and `length`): for the page writer, without a view. */
  blockOf(handle: number): Uint8Array {
    return this.blocks[this.where[handle * 3]!]!;
  }

  start(handle: number): number {
    return this.where[handle * 3 + 1]!;
  }

  length(handle: number): number {
    return this.where[handle * 3 + 2]!;
  }

  /** Remembers the position, so that the values added after it can be taken back. */
  save(): void {
    this.saved[0] = this.current;
    this.saved[1] = this.at;
    this.saved[2] = this.count;
  }

  /** Takes back every value added since `save`. */
  restore(): void {
    this.current = this.saved[0]!;
    this.at = this.saved[1]!;
    this.count = this.saved[2]!;
  }

  /** Every handle and view given out so far may now be reused. */
  reset(): void {
    // A block made for one huge value is not kept for the next group.
    this.blocks = this.blocks.filter((b) => b.length === BLOCK);
    this.current = 0;
    this.at = 0;
    this.count = 0;
  }
}
