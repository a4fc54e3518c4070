/**
 * Long text held as UTF-8 while a Parquet row group fills up. Kept as JS
 * strings, every body and JSON column of a group survived the worker's young
 * generation and was copied by each scavenge and again into the old
 * generation (most of convert's page faults, ~15 % of its time in GC); as
 * bytes in a few reused blocks the strings die young. A value is known by a
 * number (`add`), not by an object, until the group is written (`view`);
 * views stay valid until `reset`, which the row-group encoder calls once the
 * group's bytes are copied out.
 */
const BLOCK = 256 * 1024;
const FIRST_CAPACITY = 1024;

export class Utf8Blocks {
  private readonly utf8 = new TextEncoder();
  private blocks: Uint8Array[] = [];
  private current = 0;
  private at = 0;
  /** Per value: its block, start and length. */
  private where = new Int32Array(FIRST_CAPACITY * 3);
  private count = 0;

  /** Adds `text` as UTF-8 (lone surrogates as U+FFFD, as TextEncoder writes them); returns its handle. */
  add(text: string): number {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    const room = text.length * 3;
    let block = this.blocks[this.current];
    if (block === undefined || this.at + room > block.length) {
      if (block !== undefined) this.current++;
      this.at = 0;
      block = this.blocks[this.current];
      if (block === undefined || block.length < room) {
        block = new Uint8Array(Math.max(BLOCK, room));
        this.blocks[this.current] = block;
      }
    }
    const { written } = this.utf8.encodeInto(text, block.subarray(this.at));
    if ((this.count + 1) * 3 > this.where.length) {
      const bigger = new Int32Array(this.where.length * 2);
      bigger.set(this.where);
      this.where = bigger;
    }
    const i = this.count * 3;
    this.where[i] = this.current;
    this.where[i + 1] = this.at;
    this.where[i + 2] = written;
    this.at += written;
    return this.count++;
  }

  /** The bytes of the value `handle`, valid until `reset`. */
  view(handle: number): Uint8Array {
    const i = handle * 3;
    const start = this.where[i + 1]!;
    return this.blocks[this.where[i]!]!.subarray(start, start + this.where[i + 2]!);
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
