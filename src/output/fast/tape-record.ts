/**
 * A record read from its line's bytes for convert's byte readers (Parquet,
 * CSV, TSV, JSON Lines): the line is checked and laid out as a tape
 * (json-tape.ts), and the values on the column paths are looked up in it as
 * the record path reads them from the parsed object (flatten.ts): the last
 * of two keys alike wins, as in JSON.parse; a path goes on only through
 * objects. Nothing is decoded and no JS value is made.
 *
 * A line it does not take (not JSON, not one object, an escaped key on the
 * way, an envelope of results at the top level) is read the ordinary way by
 * the caller.
 */
import { LIST_SEPARATOR } from '../flatten.js';
import {
  ARRAY,
  END,
  ESCAPED,
  JsonTape,
  KEY,
  KIND,
  NEXT,
  NULL,
  NUMBER,
  OBJECT,
  START,
  STRING,
} from './json-tape.js';
import type { TextOut } from './tape-text.js';
import { json, numberText, stringText } from './tape-text.js';

/** A key on a column's path: its bytes, its slot (where the value's tape entry goes), its children. */
interface PathNode {
  readonly key: Uint8Array;
  readonly slot: number;
  readonly children: PathNode[];
  /**
   * The children by `keyCode`: index + 1, 0 for none, -1 for two or more
   * (then looked through in turn). An article's 35 keys were each compared
   * with every child: ~7 % of a CSV worker's time.
   */
  readonly lookup: Int8Array;
}

const LOOKUP = 64;

/** A key's place in a node's lookup: its length and its first and last bytes. */
function keyCode(b: Uint8Array, start: number, length: number): number {
  return (length * 7 + b[start]! * 3 + b[start + length - 1]!) & (LOOKUP - 1);
}

function node(key: Uint8Array, slot: number): PathNode {
  return { key, slot, children: [], lookup: new Int8Array(LOOKUP) };
}

const utf8 = new TextEncoder();
const SEPARATOR = utf8.encode(LIST_SEPARATOR);
const NAME = utf8.encode('name');

/** True when the record path cannot be read from bytes: the record itself, or a key every object has. */
export function unreadablePath(path: readonly string[]): boolean {
  return path.length === 0 || path.some((k) => k in Object.prototype);
}

export class TapeRecord {
  readonly tape = new JsonTape();
  private readonly root: PathNode = node(new Uint8Array(0), 0);
  private slotCount = 1;
  private slots = new Int32Array(1);
  /** The root's `results` slot: a line that is an envelope of results is not one record. */
  private readonly results: number;
  /** The chunk the lines are in. */
  private bytes: Uint8Array | undefined;

  constructor() {
    this.results = this.slotOf(['results']);
  }

  /** The slot that holds the tape entry of the value at `path` after `read` (see `unreadablePath`). */
  slotOf(path: readonly string[]): number {
    let at = this.root;
    for (const key of path) {
      const bytes = utf8.encode(key);
      let child = at.children.find((c) => Buffer.compare(c.key, bytes) === 0);
      if (child === undefined) {
        child = node(bytes, this.slotCount++);
        at.children.push(child);
        if (bytes.length > 0 && at.children.length < 127) {
          const code = keyCode(bytes, 0, bytes.length);
          at.lookup[code] = at.lookup[code] === 0 ? at.children.length : -1;
        }
      }
      at = child;
    }
    if (this.slots.length < this.slotCount) this.slots = new Int32Array(this.slotCount);
    return at.slot;
  }

  /**
   * Reads the record on `bytes[from, to)` (one JSON object, a line end after
   * `to`): false when it cannot. A line in JSON Lines (`topLevel`) may also
   * be an envelope of results: false.
   */
  read(bytes: Uint8Array, from: number, to: number, topLevel: boolean): boolean {
    const tape = this.tape;
    if (bytes !== this.bytes) {
      this.bytes = bytes;
      tape.chunk(bytes);
    }
    if (tape.scan(from, lineEnd(bytes, to)) !== to || (tape.tape[0]! & KIND) !== OBJECT) {
      return false;
    }
    this.slots.fill(-1);
    if (!this.resolve(bytes, 0, this.root)) return false;
    if (topLevel) {
      const r = this.slots[this.results]!;
      if (r >= 0 && (tape.tape[r]! & KIND) === ARRAY) return false;
    }
    return true;
  }

  /** The tape entry of the first of `slots` that holds a value (not null); -1 for none. */
  valueOf(slots: readonly number[]): number {
    const tape = this.tape.tape;
    for (let i = 0; i < slots.length; i++) {
      const e = this.slots[slots[i]!]!;
      if (e >= 0 && tape[e] !== NULL) return e;
    }
    return -1;
  }

  /** Puts the tape entries of the object at entry `e`'s members on `node`'s paths in their slots. */
  private resolve(b: Uint8Array, e: number, node: PathNode): boolean {
    const tape = this.tape.tape;
    const last = tape[e + NEXT]!;
    const children = node.children;
    const many = children.length > 127;
    for (let k = e + 4; k < last; k = tape[k + 4 + NEXT]!) {
      if (tape[k] !== KEY) return false; // an escaped key: JSON.parse would unescape it
      const start = tape[k + START]!;
      const length = tape[k + END]! - start;
      const found = many || length === 0 ? -1 : node.lookup[keyCode(b, start, length)]!;
      if (found === 0) continue;
      for (let c = found > 0 ? found - 1 : 0; c < children.length; c++) {
        const child = children[c]!;
        const key = child.key;
        if (key.length === length) {
          let i = 0;
          while (i < length && key[i] === b[start + i]) i++;
          if (i === length) {
            // A later key alike replaces the value and everything found under it.
            if (child.children.length > 0) this.clear(child);
            this.slots[child.slot] = k + 4;
            if (child.children.length > 0 && (tape[k + 4]! & KIND) === OBJECT) {
              if (!this.resolve(b, k + 4, child)) return false;
            }
            break;
          }
        }
        if (found > 0) break; // the one child of this code, not it
      }
    }
    return true;
  }

  private clear(node: PathNode): void {
    for (const child of node.children) {
      this.slots[child.slot] = -1;
      this.clear(child);
    }
  }

  /** The value entry of the last member `key` of the object at entry e; -1 for none, -2 when a key is escaped. */
  member(b: Uint8Array, e: number, key: Uint8Array): number {
    const tape = this.tape.tape;
    const last = tape[e + NEXT]!;
    let found = -1;
    for (let k = e + 4; k < last; k = tape[k + 4 + NEXT]!) {
      if (tape[k] !== KEY) return -2;
      const start = tape[k + START]!;
      if (tape[k + END]! - start !== key.length) continue;
      let i = 0;
      while (i < key.length && key[i] === b[start + i]) i++;
      if (i === key.length) found = k + 4;
    }
    return found;
  }

  /**
   * The array at entry e joined with "; " into `out`, as flatten.ts's
   * `names` and `join` make it: the `name` of each object in it (`names`),
   * or each item as String() writes it, objects and arrays as JSON (`join`).
   * False when it cannot (the caller then reads the record the ordinary way).
   */
  list(b: Uint8Array, e: number, names: boolean, out: TextOut): boolean {
    const tape = this.tape.tape;
    const last = tape[e + NEXT]!;
    let first = true;
    for (let v = e + 4; v < last; v = tape[v + NEXT]!) {
      const kind = tape[v]! & KIND;
      if (names) {
        if (kind !== OBJECT) continue;
        const name = this.member(b, v, NAME);
        if (name === -2) return false;
        if (name < 0 || (tape[name]! & KIND) !== STRING) continue;
        if (!first) out.copy(SEPARATOR, 0, SEPARATOR.length);
        first = false;
        stringText(b, tape[name + START]!, tape[name + END]!, (tape[name]! & ESCAPED) !== 0, out);
        continue;
      }
      if (!first) out.copy(SEPARATOR, 0, SEPARATOR.length);
      first = false;
      const start = tape[v + START]!;
      const end = tape[v + END]!;
      if (kind === STRING) stringText(b, start, end, (tape[v]! & ESCAPED) !== 0, out);
      else if (kind === NUMBER) numberText(b, start, end, out, false);
      else if (kind === OBJECT || kind === ARRAY) {
        if (!json(b, tape, v, out)) return false;
      } else out.copy(b, start, end); // true, false, null
    }
    return true;
  }
}

/** The line end after `to` (trailing spaces or a comma may come first). */
function lineEnd(bytes: Uint8Array, to: number): number {
  let i = to;
  while (i < bytes.length && bytes[i] !== 0x0a) i++;
  return i;
}
