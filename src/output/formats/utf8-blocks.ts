/**
 * Long text held as UTF-8 while a Parquet row group fills up. Kept as JS
 * strings, every body and JSON column of a group survived the worker's young
 * generation and was copied by each scavenge and again into the old
 * generation (most of convert's page faults, ~15 % of its time in GC); as
 * bytes in a few reused blocks the strings die young. The views handed out
 * stay valid until `reset`, which the row-group encoder calls once the
 * group's bytes are copied out.
 */
const BLOCK = 256 * 1024;

export class Utf8Blocks {
  private readonly utf8 = new TextEncoder();
  private blocks: Uint8Array[] = [];
  private current = 0;
  private at = 0;

  /** `text` as UTF-8 (lone surrogates as U+FFFD, as TextEncoder writes them). */
  put(text: string): Uint8Array {
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
    const view = block.subarray(this.at, this.at + written);
    this.at += written;
    return view;
  }

  /** Every view handed out so far may now be overwritten. */
  reset(): void {
    // A block made for one huge value is not kept for the next group.
    this.blocks = this.blocks.filter((b) => b.length === BLOCK);
    this.current = 0;
    this.at = 0;
  }
}
